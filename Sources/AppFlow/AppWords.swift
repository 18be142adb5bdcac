/// The engine's own words on the app's screens where no owner field says them, in the languages StoreWords speaks:
/// the French paywall kept the English header "Subscribe" (session 28). The owner's words (the paywall's title, body,
/// restore and log-in) are the owner's config, with its own translations.
enum AppWords {
    /// The paywall's header, as Apple's sheet words its button (`StoreWords.subscribe`): AppFlow imports no store.
    static func subscribeHeader(_ locale: String) -> String {
        let language = String(locale.prefix { $0 != "_" && $0 != "-" }).lowercased()
        return subscribe[language] ?? "Subscribe"
    }

    private static let subscribe = [
        "fr": "S’abonner", "de": "Abonnieren", "es": "Suscribirse", "it": "Abbonati", "ja": "登録", "pt": "Assinar",
    ]
}
