import AppFlow
import Simulation
import WhiteLabel

extension Scenario {
    /// An offer, a piece of content, a level, a product or an offer code a step or an expectation names that the app
    /// does not have is a mistake in the file, named at its line before the run (exit 2), as an unknown product of a
    /// `store` step is: `select offer premium-nope`, `expect levels storys` (session 35) and `redeem code NOPE`
    /// (session 36) were failed tests, exit 1.
    func checkIds(of config: DemoConfig) throws(ConfigError) {
        let offers = config.app.subscriptions.map(\.id)
        let content = config.app.content.map(\.id)
        let levels = Set(config.backend.productLevels.values.joined()).sorted()
        let products = config.store.products.map(\.productId)
        let codes = config.store.products.flatMap { $0.offerCodes ?? [] }.map(\.code)
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
            // The App Store reads a code whatever its case (`OfferCodeRedemption`).
            case .world(.redeemCode(let code)) where !codes.contains(where: { $0.lowercased() == code.lowercased() }):
                named = [("offer code", code, codes)]
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
