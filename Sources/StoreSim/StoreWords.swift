import SimKernel
import WhiteLabel

/// The words StoreKit gives an app about periods and offers, in the device's language: "par mois",
/// "1 semaine gratuite", "pro Monat", "1週間無料". They belong to the store, as `Product.SubscriptionPeriod`'s
/// formatting does on a phone; the app only places them into its owner's templates.
///
/// English keeps the simulator's earlier words ("per 3 months"), so English paywalls read as before.
public struct StoreWords: Sendable {
    /// The language the words are in: `en`, `fr`, `de`, `es`, `it`, `ja`, `pt`. Others fall back to English.
    public let language: String
    private let table: Table

    /// The languages the words are written in, sorted: `de`, `en`, `es`, `fr`, `it`, `ja`, `pt`.
    public static var languages: [String] { tables.keys.sorted() }

    /// A phone's locale of `language`, in its main storefront's country: `fr_FR`, `pt_BR`, `en_US`.
    public static func locale(of language: String) -> String {
        switch language {
        case "en": "en_US"
        case "ja": "ja_JP"
        case "pt": "pt_BR"
        default: "\(language)_\(language.uppercased())"
        }
    }

    /// `locale` as the store knows it: `fr_FR`, `pt_BR`, `ja-JP`.
    public init(locale: String) {
        let code = String(locale.prefix { $0 != "_" && $0 != "-" }).lowercased()
        let table = Self.tables[code]
        self.language = table == nil ? "en" : code
        self.table = table ?? Self.tables["en"]!
    }

    /// "1 week", "1 semaine", "3 Monate", "1週間": a length with its number always said.
    public func length(_ period: CalendarPeriod) -> String {
        let names = table.units[period.unit]!
        let word = period.value == 1 ? names.one : names.many
        return table.joined ? "\(period.value)\(word)" : "\(period.value) \(word)"
    }

    /// "month", "mois", "3 Monate": the period a price is charged for, as a template's `{period}`.
    public func unit(_ period: CalendarPeriod) -> String {
        period.value == 1 ? table.units[period.unit]!.bare : length(period)
    }

    /// "per month", "par mois", "pro Monat", "every 3 months" (English: "per 3 months").
    public func perPeriod(_ period: CalendarPeriod) -> String {
        period.value == 1
            ? table.per[period.unit]! : table.every[period.unit]!.replacingPlainly("{length}", with: length(period))
    }

    /// "1 week free", "1 semaine gratuite", "1 Woche gratis", "1週間無料".
    public func freeTrial(_ period: CalendarPeriod) -> String {
        let free = period.value == 1 ? table.free[period.unit]!.one : table.free[period.unit]!.many
        return table.joined ? length(period) + free : "\(length(period)) \(free)"
    }

    /// An offer's price and periods up to its "then ": what Apple's sheet and the paywall both say.
    public func offerTerms(mode: ProductDiscount.PaymentMode, price: String, period: CalendarPeriod, count: Int)
        -> String
    {
        let template: String
        var whole = period
        whole.value *= max(count, 1)
        switch mode {
        case .freeTrial: template = table.freeThen
        case .payUpFront: template = table.upFrontThen
        case .payAsYouGo where count <= 1:
            // One period: "$0.99 for the first month", as Apple says it; "$0.99 per month" said nothing of how long
            // it lasts (session 28).
            let first = table.first[period.unit]!
            template = (period.value == 1 ? first.one : first.many) + table.then
        case .payAsYouGo:
            template =
                table.regular.replacingPlainly("{per}", with: perPeriod(period)) + " "
                + table.during.replacingPlainly("{length}", with: length(whole)) + table.then
        }
        return
            template
            .replacingPlainly("{length}", with: length(whole))
            .replacingPlainly("{value}", with: String(period.value))
            .replacingPlainly("{price}", with: price)
    }

    /// Apple's sheet: what is charged and how it renews, an offer first when one applies.
    public func sheetTerms(price: String, period: CalendarPeriod?, offer: String) -> String {
        guard let period else { return table.oneTime.replacingPlainly("{price}", with: price) }
        let regular = table.regular.replacingPlainly("{price}", with: price)
            .replacingPlainly("{per}", with: perPeriod(period))
        return offer + regular + table.stop + " " + table.renews
    }

    /// A price and the period it pays for: "$59.99 per year", "59,99 € par an", as the manage sheet lists a plan.
    public func price(_ price: String, per period: CalendarPeriod) -> String {
        table.regular.replacingPlainly("{price}", with: price).replacingPlainly("{per}", with: perPeriod(period))
    }

    /// The sheet's line naming who pays: "Apple ID: {id}", "Identifiant Apple : {id}" (session 28: English on a French
    /// sheet).
    public func appleIdLine(_ appleId: String) -> String {
        (Self.appleIdLines[language] ?? "Apple ID: {id}").replacingPlainly("{id}", with: appleId)
    }

    /// Apple's name for an Apple ID in each language it is not "Apple ID" in, as its sheets write it.
    private static let appleIdLines = [
        "fr": "Identifiant Apple : {id}", "de": "Apple-ID: {id}", "es": "ID de Apple: {id}", "it": "ID Apple: {id}",
        "pt": "ID Apple: {id}",
    ]

    /// What Apple's sheets call a plan whose name the store's catalog no longer holds: an owner's file that dropped a
    /// product since a kept folder's subscription bought it had the manage sheet read "Plan:
    /// com.podcastclub.listener.yearly" (session 39). Never the product's identifier.
    private static let unnamedPlans = [
        "en": "Subscription", "fr": "Abonnement", "de": "Abo", "es": "Suscripción", "it": "Abbonamento",
        "ja": "サブスクリプション", "pt": "Assinatura",
    ]
    public var unnamedPlan: String { Self.unnamedPlans[language] ?? "Subscription" }

    /// The sheet's two buttons: "Subscribe" and "Cancel", "S'abonner" and "Annuler".
    public var subscribe: String { table.subscribe }
    public var cancel: String { table.cancel }

    /// The price-increase sheet's words; English where the language has none of its own.
    public var consent: ConsentWords { table.consent }

    /// What the payment sheet adds when the Apple ID already runs another plan of the product's group: the change
    /// takes that subscription's place now, or at its renewal on `date` (`nil`: now).
    public func replaces(_ title: String, on date: String?) -> String {
        (date == nil ? table.replacesNow : table.replacesLater).replacingPlainly("{title}", with: title)
            .replacingPlainly("{date}", with: date ?? "")
    }

    /// What the payment sheet adds when the plan asked is the one the Apple ID runs, with a change to `pending` set for
    /// its renewal on `date`: paying for it cancels that change (a third phone's tap undid a second phone's switch
    /// without a word, session 26).
    public func keeps(_ title: String, instead pending: String, on date: String) -> String {
        table.keepsInstead.replacingPlainly("{title}", with: title).replacingPlainly("{pending}", with: pending)
            .replacingPlainly("{date}", with: date)
    }
}

/// What Apple's price-increase sheet says, in one language.
public struct ConsentWords: Sendable {
    /// With `{title}` for the product's title.
    public let heading: String
    public let terms: String
    /// The terms while an offer's periods are still due: Apple renews those at the offer's price without consent, and
    /// ends the subscription only at the first renewal at the raised price (session 28: "it ends at the end of the
    /// period" of a period Apple would renew).
    public let termsAfterOffer: String
    public let agree: String
    public let notNow: String
}

extension StoreWords {
    private struct Names {
        /// Without a number: "month"; after 1: "month"; after more: "months".
        let bare: String
        let one: String
        let many: String
    }

    private struct Table {
        var units: [CalendarPeriod.Unit: Names]
        var per: [CalendarPeriod.Unit: String]
        /// By unit: French agrees it with the noun ("toutes les 2 semaines", "tous les 3 mois", session 28).
        var every: [CalendarPeriod.Unit: String]
        /// The word after a free length, by unit (French agrees it with the noun).
        var free: [CalendarPeriod.Unit: (one: String, many: String)]
        var freeThen: String
        var upFrontThen: String
        /// A pay-as-you-go price for one period, by unit: of one unit ("{price} for the first month") and of more
        /// ("{price} for the first {length}"; `{value}` is the number alone, where the language puts a word between).
        var first: [CalendarPeriod.Unit: (one: String, many: String)]
        var during: String
        var then: String
        var regular: String
        var stop: String = "."
        var renews: String
        var oneTime: String
        var subscribe: String
        var cancel: String
        /// Apple's price-increase sheet: its heading, what it says, and its two buttons. Each language gives it, and the
        /// plan-change lines below: an English default left Italian, Japanese and Portuguese sheets with English lines
        /// (session 32).
        var consent: ConsentWords
        /// Japanese writes the number and the unit with no space.
        var joined = false
        /// A plan change on the payment sheet, with `{title}` for the plan it replaces and `{date}` for its renewal.
        var replacesNow: String
        var replacesLater: String
        /// The plan the subscription runs, tapped while a change to `{pending}` waits for its renewal on `{date}`.
        var keepsInstead: String
    }

    private static func same(_ word: String) -> [CalendarPeriod.Unit: (one: String, many: String)] {
        Dictionary(uniqueKeysWithValues: CalendarPeriod.Unit.allCases.map { ($0, (word, word)) })
    }

    private static func every(_ words: String) -> [CalendarPeriod.Unit: String] {
        Dictionary(uniqueKeysWithValues: CalendarPeriod.Unit.allCases.map { ($0, words) })
    }

    private static let tables: [String: Table] = [
        "en": Table(
            units: [
                .day: Names(bare: "day", one: "day", many: "days"),
                .week: Names(bare: "week", one: "week", many: "weeks"),
                .month: Names(bare: "month", one: "month", many: "months"),
                .year: Names(bare: "year", one: "year", many: "years"),
            ],
            per: [.day: "per day", .week: "per week", .month: "per month", .year: "per year"],
            every: every("per {length}"), free: same("free"), freeThen: "Free for {length}, then ",
            upFrontThen: "{price} for {length}, then ",
            first: [
                .day: ("{price} for the first day", "{price} for the first {length}"),
                .week: ("{price} for the first week", "{price} for the first {length}"),
                .month: ("{price} for the first month", "{price} for the first {length}"),
                .year: ("{price} for the first year", "{price} for the first {length}"),
            ], during: "for {length}", then: ", then ",
            regular: "{price} {per}", renews: "Renews automatically until cancelled in Settings.",
            oneTime: "One-time purchase of {price}.", subscribe: "Subscribe", cancel: "Cancel",
            consent: ConsentWords(
                heading: "Price increase: {title}",
                terms:
                    "The price of your subscription is going up. Agree to keep it; otherwise it ends at the end of the period.",
                termsAfterOffer:
                    "The price of your subscription goes up once your offer ends. Agree to keep it then; otherwise it ends when your offer ends.",
                agree: "Agree", notNow: "Not now"),
            replacesNow: "It replaces your {title} subscription now; the rest of its period is refunded.",
            replacesLater: "It replaces your {title} subscription at its renewal on {date}; nothing is charged now.",
            keepsInstead:
                "It keeps your {title} subscription as it is: the change to {pending} at its renewal on {date} is "
                + "cancelled; nothing is charged now."),
        "fr": Table(
            units: [
                .day: Names(bare: "jour", one: "jour", many: "jours"),
                .week: Names(bare: "semaine", one: "semaine", many: "semaines"),
                .month: Names(bare: "mois", one: "mois", many: "mois"),
                .year: Names(bare: "an", one: "an", many: "ans"),
            ],
            per: [.day: "par jour", .week: "par semaine", .month: "par mois", .year: "par an"],
            every: [
                .day: "tous les {length}", .week: "toutes les {length}", .month: "tous les {length}",
                .year: "tous les {length}",
            ],
            free: [
                .day: ("gratuit", "gratuits"), .week: ("gratuite", "gratuites"), .month: ("gratuit", "gratuits"),
                .year: ("gratuit", "gratuits"),
            ],
            freeThen: "Gratuit pendant {length}, puis ", upFrontThen: "{price} pour {length}, puis ",
            first: [
                .day: ("{price} le premier jour", "{price} les {value} premiers jours"),
                .week: ("{price} la première semaine", "{price} les {value} premières semaines"),
                .month: ("{price} le premier mois", "{price} les {value} premiers mois"),
                .year: ("{price} la première année", "{price} les {value} premières années"),
            ],
            during: "pendant {length}", then: ", puis ", regular: "{price} {per}",
            renews: "Renouvellement automatique jusqu’à résiliation dans Réglages.",
            oneTime: "Achat unique de {price}.", subscribe: "S’abonner", cancel: "Annuler",
            consent: ConsentWords(
                heading: "Hausse de prix : {title}",
                terms:
                    "Le prix de votre abonnement augmente. Acceptez pour le garder ; sinon, il prend fin à la fin de la période.",
                termsAfterOffer:
                    "Le prix de votre abonnement augmente à la fin de votre offre. Acceptez pour le garder ensuite ; sinon, il prend fin avec votre offre.",
                agree: "Accepter", notNow: "Plus tard"),
            replacesNow: "Il remplace votre abonnement {title} dès maintenant ; le reste de sa période est remboursé.",
            replacesLater:
                "Il remplace votre abonnement {title} à son renouvellement le {date} ; rien n’est facturé maintenant.",
            keepsInstead:
                "Il garde votre abonnement {title} tel quel : le passage à {pending} prévu à son renouvellement le "
                + "{date} est annulé ; rien n’est facturé maintenant."),
        "de": Table(
            units: [
                .day: Names(bare: "Tag", one: "Tag", many: "Tage"),
                .week: Names(bare: "Woche", one: "Woche", many: "Wochen"),
                .month: Names(bare: "Monat", one: "Monat", many: "Monate"),
                .year: Names(bare: "Jahr", one: "Jahr", many: "Jahre"),
            ],
            per: [.day: "pro Tag", .week: "pro Woche", .month: "pro Monat", .year: "pro Jahr"],
            every: every("alle {length}"), free: same("gratis"), freeThen: "{length} gratis, dann ",
            upFrontThen: "{price} für {length}, dann ",
            first: [
                .day: ("{price} für den ersten Tag", "{price} für die ersten {length}"),
                .week: ("{price} für die erste Woche", "{price} für die ersten {length}"),
                .month: ("{price} für den ersten Monat", "{price} für die ersten {length}"),
                .year: ("{price} für das erste Jahr", "{price} für die ersten {length}"),
            ], during: "für {length}", then: ", dann ",
            regular: "{price} {per}",
            renews: "Verlängert sich automatisch, bis es in den Einstellungen gekündigt wird.",
            oneTime: "Einmalkauf für {price}.", subscribe: "Abonnieren", cancel: "Abbrechen",
            consent: ConsentWords(
                heading: "Preiserhöhung: {title}",
                terms:
                    "Der Preis deines Abos steigt. Stimme zu, um es zu behalten; sonst endet es am Ende des Zeitraums.",
                termsAfterOffer:
                    "Der Preis deines Abos steigt, sobald dein Angebot endet. Stimme zu, um es danach zu behalten; sonst endet es mit deinem Angebot.",
                agree: "Zustimmen", notNow: "Nicht jetzt"),
            replacesNow: "Es ersetzt dein Abo {title} ab sofort; der Rest seines Zeitraums wird erstattet.",
            replacesLater: "Es ersetzt dein Abo {title} bei der Verlängerung am {date}; jetzt wird nichts berechnet.",
            keepsInstead:
                "Dein Abo {title} bleibt, wie es ist: der Wechsel zu {pending} bei der Verlängerung am {date} entfällt; "
                + "jetzt wird nichts berechnet."),
        "es": Table(
            units: [
                .day: Names(bare: "día", one: "día", many: "días"),
                .week: Names(bare: "semana", one: "semana", many: "semanas"),
                .month: Names(bare: "mes", one: "mes", many: "meses"),
                .year: Names(bare: "año", one: "año", many: "años"),
            ],
            per: [.day: "al día", .week: "a la semana", .month: "al mes", .year: "al año"],
            every: every("cada {length}"), free: same("gratis"), freeThen: "Gratis durante {length}, luego ",
            upFrontThen: "{price} por {length}, luego ",
            first: [
                .day: ("{price} durante el primer día", "{price} durante los primeros {length}"),
                .week: ("{price} durante la primera semana", "{price} durante las primeras {length}"),
                .month: ("{price} durante el primer mes", "{price} durante los primeros {length}"),
                .year: ("{price} durante el primer año", "{price} durante los primeros {length}"),
            ], during: "durante {length}", then: ", luego ",
            regular: "{price} {per}", renews: "Se renueva automáticamente hasta que se cancele en Ajustes.",
            oneTime: "Compra única de {price}.", subscribe: "Suscribirse", cancel: "Cancelar",
            consent: ConsentWords(
                heading: "Aumento de precio: {title}",
                terms:
                    "El precio de tu suscripción va a subir. Acepta para conservarla; si no, terminará al final del periodo.",
                termsAfterOffer:
                    "El precio de tu suscripción subirá cuando termine tu oferta. Acepta para conservarla después; si no, terminará con tu oferta.",
                agree: "Aceptar", notNow: "Ahora no"),
            replacesNow: "Sustituye tu suscripción {title} desde ahora; se reembolsa el resto de su periodo.",
            replacesLater: "Sustituye tu suscripción {title} al renovarse el {date}; ahora no se cobra nada.",
            keepsInstead:
                "Mantiene tu suscripción {title} tal como está: se cancela el cambio a {pending} al renovarse el {date}; "
                + "ahora no se cobra nada."),
        "it": Table(
            units: [
                .day: Names(bare: "giorno", one: "giorno", many: "giorni"),
                .week: Names(bare: "settimana", one: "settimana", many: "settimane"),
                .month: Names(bare: "mese", one: "mese", many: "mesi"),
                .year: Names(bare: "anno", one: "anno", many: "anni"),
            ],
            per: [.day: "al giorno", .week: "a settimana", .month: "al mese", .year: "all’anno"],
            every: every("ogni {length}"), free: same("gratis"), freeThen: "Gratis per {length}, poi ",
            upFrontThen: "{price} per {length}, poi ",
            first: [
                .day: ("{price} per il primo giorno", "{price} per i primi {length}"),
                .week: ("{price} per la prima settimana", "{price} per le prime {length}"),
                .month: ("{price} per il primo mese", "{price} per i primi {length}"),
                .year: ("{price} per il primo anno", "{price} per i primi {length}"),
            ], during: "per {length}", then: ", poi ",
            regular: "{price} {per}", renews: "Si rinnova automaticamente fino alla disdetta in Impostazioni.",
            oneTime: "Acquisto singolo di {price}.", subscribe: "Abbonati", cancel: "Annulla",
            consent: ConsentWords(
                heading: "Aumento di prezzo: {title}",
                terms:
                    "Il prezzo del tuo abbonamento aumenta. Accetta per mantenerlo; altrimenti termina alla fine del periodo.",
                termsAfterOffer:
                    "Il prezzo del tuo abbonamento aumenta al termine della tua offerta. Accetta per mantenerlo dopo; altrimenti termina con la tua offerta.",
                agree: "Accetta", notNow: "Non ora"),
            replacesNow: "Sostituisce il tuo abbonamento {title} da subito; il resto del suo periodo viene rimborsato.",
            replacesLater:
                "Sostituisce il tuo abbonamento {title} al rinnovo del {date}; ora non viene addebitato nulla.",
            keepsInstead:
                "Mantiene il tuo abbonamento {title} così com’è: il passaggio a {pending} al rinnovo del {date} è "
                + "annullato; ora non viene addebitato nulla."),
        "ja": Table(
            units: [
                .day: Names(bare: "日", one: "日", many: "日"),
                .week: Names(bare: "週", one: "週間", many: "週間"),
                .month: Names(bare: "月", one: "か月", many: "か月"),
                .year: Names(bare: "年", one: "年", many: "年"),
            ],
            per: [.day: "毎日", .week: "毎週", .month: "毎月", .year: "毎年"],
            every: every("{length}ごと"), free: same("無料"), freeThen: "{length}無料、その後",
            upFrontThen: "{length}で{price}、その後", first: same("最初の{length}は{price}"), during: "（{length}）",
            then: "、その後",
            regular: "{per}{price}", stop: "。", renews: "設定でキャンセルするまで自動的に更新されます。",
            oneTime: "{price}の1回限りの購入。", subscribe: "登録", cancel: "キャンセル",
            consent: ConsentWords(
                heading: "価格の値上げ：{title}",
                terms: "サブスクリプションの価格が上がります。継続するには同意してください。同意しない場合は期間の終了時に終了します。",
                termsAfterOffer:
                    "オファーの終了後にサブスクリプションの価格が上がります。その後も継続するには同意してください。同意しない場合はオファーの終了時に終了します。",
                agree: "同意する", notNow: "今はしない"), joined: true,
            replacesNow: "{title}のサブスクリプションは今すぐ置き換えられ、期間の残りは返金されます。",
            replacesLater: "{title}のサブスクリプションは{date}の更新時に置き換えられます。今は請求されません。",
            keepsInstead: "{title}のサブスクリプションはそのまま継続されます：{date}の更新時の{pending}への変更はキャンセルされます。今は請求されません。"),
        "pt": Table(
            units: [
                .day: Names(bare: "dia", one: "dia", many: "dias"),
                .week: Names(bare: "semana", one: "semana", many: "semanas"),
                .month: Names(bare: "mês", one: "mês", many: "meses"),
                .year: Names(bare: "ano", one: "ano", many: "anos"),
            ],
            per: [.day: "por dia", .week: "por semana", .month: "por mês", .year: "por ano"],
            every: every("a cada {length}"), free: same("grátis"), freeThen: "Grátis por {length}, depois ",
            upFrontThen: "{price} por {length}, depois ",
            first: [
                .day: ("{price} no primeiro dia", "{price} nos primeiros {length}"),
                .week: ("{price} na primeira semana", "{price} nas primeiras {length}"),
                .month: ("{price} no primeiro mês", "{price} nos primeiros {length}"),
                .year: ("{price} no primeiro ano", "{price} nos primeiros {length}"),
            ], during: "por {length}", then: ", depois ",
            regular: "{price} {per}", renews: "Renova automaticamente até ser cancelada em Ajustes.",
            oneTime: "Compra única de {price}.", subscribe: "Assinar", cancel: "Cancelar",
            consent: ConsentWords(
                heading: "Aumento de preço: {title}",
                terms:
                    "O preço da sua assinatura vai aumentar. Concorde para mantê-la; caso contrário, ela termina no fim do período.",
                termsAfterOffer:
                    "O preço da sua assinatura vai aumentar quando sua oferta terminar. Concorde para mantê-la depois; caso contrário, ela termina com sua oferta.",
                agree: "Concordar", notNow: "Agora não"),
            replacesNow: "Substitui sua assinatura {title} agora; o restante do período é reembolsado.",
            replacesLater: "Substitui sua assinatura {title} na renovação em {date}; nada é cobrado agora.",
            keepsInstead:
                "Mantém sua assinatura {title} como está: a mudança para {pending} na renovação em {date} é cancelada; "
                + "nada é cobrado agora."),
    ]
}
