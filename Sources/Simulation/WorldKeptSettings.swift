import FoundationEssentials
import SimKernel
import StoreSim

/// What a state folder keeps of the settings the control pane changes, beside Ask to Buy: the Apple ID's billing issue
/// and storefront in the App Store's records (`AppleIdSettings`), the phone's language in its own folder
/// (`devices/NAME/locale`). A relaunch on the same folder kept Ask to Buy but lost the rest, and charged a renewal the
/// tester had set to fail (session 28).
extension World {
    /// The phone's language file in its folder; nil for a world in memory.
    func localeFile(of phone: String) -> String? {
        options.stateDirectory.map { "\($0)/devices/\(phone)/locale" }
    }

    /// Keeps the language the phone is set to, for the next run.
    func keepLocale(of phone: String) {
        guard let file = localeFile(of: phone) else { return }
        _ = attempt("keep the language of \(phone)") {
            try Data("\(store.locale)\n".utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        }
    }

    /// A reopened folder's settings, applied before the clock catches up (a renewal due on the way fails as it was
    /// set to); returns the timeline line that says them, for once it has. A folder written before they were kept
    /// opens on the defaults.
    func resumeSettings() -> String? {
        guard options.stateDirectory != nil else { return nil }
        var reopened: [String] = []
        let kept = store.keptSettings(appleId: appleId)
        if let askToBuy = kept.askToBuy { reopened.append("Ask to Buy \(askToBuy ? "on" : "off")") }
        let billing = appleId == options.appleId ? kept : store.keptSettings(appleId: options.appleId)
        if let grace = billing.gracePeriod { store.billingGracePeriodEnabled = grace }
        if billing.billingIssue == true {
            reopened.append("billing issue\(store.billingGracePeriodEnabled ? " with grace period" : "")")
        }
        if let code = kept.storefront {
            if let storefront = Storefront.named(code) {
                store.storefront = storefront
                reopened.append("storefront \(code)")
            } else {
                report(
                    "error: the kept storefront \(code) is not one the App Store knows; \(storefront) is used",
                    from: .control)
            }
        }
        if let locale = keptLocale() {
            store.locale = locale
            reopened.append("locale \(locale)")
        }
        guard !reopened.isEmpty else { return nil }
        return "state reopened: \(reopened.joined(separator: ", ")), as the last run left them"
    }

    /// The language kept in the phone's folder; nil when none is (a new phone, a folder written before), or when it
    /// cannot be used, said on the timeline.
    private func keptLocale() -> String? {
        guard let file = localeFile(of: deviceName), FileManager.default.fileExists(atPath: file) else { return nil }
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            report(
                "error: \(file) cannot be read (\(error.failureDescription)); \(store.locale) is used", from: .control)
            return nil
        }
        let locale = text.trimmingWhitespace()
        if let problem = PriceLocales.problem(locale, products: config.store.products) {
            report("error: \(file): \(problem); \(store.locale) is used", from: .control)
            return nil
        }
        return locale
    }
}
