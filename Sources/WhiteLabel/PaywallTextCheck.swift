import FoundationEssentials

/// The paywall's words as a config gives them: every template, each locale's too, named by its field path.
extension DemoConfigLoader {
    /// Each template is checked at `app.paywall.offer` or `app.paywall.localizations.fr_FR.offer`; each locale is
    /// one `LocaleIdentifier` reads, and no two name the same locale (`fr-FR` and `fr_FR`).
    static func checkPaywall(_ paywall: PaywallText, file: String) throws(ConfigError) {
        var templates = [("app.paywall.offer", paywall.offer)]
        templates += [("offerWithTrial", paywall.offerWithTrial), ("winBack", paywall.winBack)].compactMap {
            field, text in text.map { ("app.paywall.\(field)", $0) }
        }
        var seen: [String: String] = [:]
        for (locale, words) in (paywall.localizations ?? [:]).sorted(by: { $0.key < $1.key }) {
            let location = "app.paywall.localizations.\(locale)"
            guard let posix = LocaleIdentifier.posix(locale) else {
                throw ConfigError(file: file, location: location, message: LocaleIdentifier.problem(locale) ?? "")
            }
            if let other = seen.updateValue(locale, forKey: posix) {
                throw ConfigError(
                    file: file, location: location,
                    message: "names the same locale as \"\(other)\" (\(posix)): keep one")
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

extension PaywallText {
    /// The owner's locales in POSIX form, `fr-FR` read as `fr_FR`, as `localized(for:)` looks them up; after
    /// `checkPaywall`, so each is a locale and none is named twice.
    mutating func placeLocalizations() {
        guard let localizations else { return }
        self.localizations = Dictionary(
            localizations.map { (LocaleIdentifier.posix($0.key) ?? $0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    }
}
