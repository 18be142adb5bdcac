/// The words of the paywall generated for a `.storekit` file alone, in the languages Apple's sheet speaks
/// (`StoreWords`): the simulator is that app's owner, so it gives the translations an owner's config gives. A French
/// phone read "Unlock every article" over French offers, with English buttons (session 34). `{file}` is the file's name.
enum GeneratedPaywallWords {
    static let title = "Unlock every article"
    static let body = "Every subscription in {file}, as the App Store sells it."

    /// Language → title, body, restore and log-in.
    private static let translated: [String: (String, String, String, String)] = [
        "fr": (
            "Débloquez chaque article", "Chaque abonnement de {file}, tel que l’App Store le vend.",
            "Restaurer l’achat", "Se connecter"
        ),
        "de": (
            "Alle Artikel freischalten", "Jedes Abo aus {file}, wie der App Store es verkauft.",
            "Kauf wiederherstellen", "Anmelden"
        ),
        "es": (
            "Desbloquea todos los artículos", "Cada suscripción de {file}, tal como la vende el App Store.",
            "Restaurar compra", "Iniciar sesión"
        ),
        "it": (
            "Sblocca ogni articolo", "Ogni abbonamento di {file}, come lo vende l’App Store.", "Ripristina acquisto",
            "Accedi"
        ),
        "ja": ("すべての記事を読む", "{file} のすべてのサブスクリプションを App Store の価格で。", "購入を復元", "ログイン"),
        "pt": (
            "Desbloqueie todos os artigos", "Cada assinatura de {file}, como a App Store a vende.",
            "Restaurar compra", "Iniciar sessão"
        ),
    ]

    /// The paywall's localizations for a file named `fileName`.
    static func localizations(fileName: String) -> [String: PaywallLocalization] {
        translated.mapValues { words in
            var localization = PaywallLocalization(
                title: words.0, body: words.1.replacingPlainly("{file}", with: fileName))
            localization.restore = words.2
            localization.logIn = words.3
            return localization
        }
    }
}
