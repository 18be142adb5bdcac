import AppFlow
import Simulation
import WhiteLabel

extension Scenario {
    /// An offer, a piece of content, a level or a product a step or an expectation names that the app does not have is
    /// a mistake in the file, named at its line before the run (exit 2), as an unknown product of a `store` step is:
    /// `select offer premium-nope` and `expect levels storys` were failed tests, exit 1 (session 35).
    func checkIds(of config: DemoConfig) throws(ConfigError) {
        let offers = config.app.subscriptions.map(\.id)
        let content = config.app.content.map(\.id)
        let levels = Set(config.backend.productLevels.values.joined()).sorted()
        let products = config.store.products.map(\.productId)
        for step in steps {
            var named: [(kind: String, id: String, known: [String])] = []
            switch step.kind {
            case .reader(.selectOffer(let id)), .reader(.doubleTapOffer(let id)): named = [("offer", id, offers)]
            case .reader(.openContent(let id)): named = [("content", id, content)]
            case .reader(.changePlan(let id)): named = [("product", id, products)]
            case .reader(.setAutoRenew(_, let id?)): named = [("product", id, products)]
            case .expect(.offers(let ids)): named = ids.map { ("offer", $0, offers) }
            case .expect(.levels(let ids)): named = ids.map { ("level", $0, levels) }
            case .expect(.content(let id, _)): named = [("content", id, content)]
            default: continue
            }
            guard let unknown = named.first(where: { !$0.known.contains($0.id) }) else { continue }
            let known = unknown.known.isEmpty ? "none" : unknown.known.joined(separator: ", ")
            let kinds = unknown.kind == "content" ? "content" : unknown.kind + "s"
            throw problem(
                StepError("unknown \(unknown.kind) \"\(unknown.id)\" in \(config.app.name) (\(kinds): \(known))"),
                at: step)
        }
    }
}
