import FoundationEssentials

/// The paywall's words as a config gives them: every template, each locale's too, named by its field path.
extension DemoConfigLoader {
    /// Each template is checked at `app.paywall.offer` or `app.paywall.localizations.fr_FR.offer`.
    static func checkPaywall(_ paywall: PaywallText, file: String) throws(ConfigError) {
        var templates = [("app.paywall.offer", paywall.offer)]
        templates += [("offerWithTrial", paywall.offerWithTrial), ("winBack", paywall.winBack)].compactMap {
            field, text in text.map { ("app.paywall.\(field)", $0) }
        }
        for (locale, words) in (paywall.localizations ?? [:]).sorted(by: { $0.key < $1.key }) {
            let location = "app.paywall.localizations.\(locale)"
            if locale.isEmpty || !locale.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "_" || $0 == "-") }) {
                throw ConfigError(
                    file: file, location: location, message: "\"\(locale)\" is not a locale such as fr_FR or fr")
            }
            for (field, text) in [
                ("title", words.title), ("body", words.body), ("restore", words.restore), ("logIn", words.logIn),
            ] where text?.trimmingSpaces().isEmpty == true {
                throw ConfigError(file: file, location: "\(location).\(field)", message: "must not be empty")
            }
            templates += [("offer", words.offer), ("offerWithTrial", words.offerWithTrial), ("winBack", words.winBack)]
                .compactMap { field, text in text.map { ("\(location).\(field)", $0) } }
        }
        for (location, template) in templates { try checkTemplate(template, at: location, file: file) }
    }
}
