import WhiteLabel

/// Apple's "Manage subscriptions" sheet's own words in the phone's language, in the languages `StoreWords` speaks (en,
/// fr, de, es, it, ja, pt; English otherwise): the sheet stayed English on a French phone while Apple's payment and
/// price-consent sheets beside it were French, and its plan row mixed both (session 32, h13). The titles, prices and
/// period terms in it are the store's, already in its words; dates are written as everywhere else. AppFlow imports no
/// store, so the table is here, as `AppWords` is; each language gives every field.
struct ManageSheetWords: Sendable {
    let heading: String
    let loading: String
    let done: String
    /// `{title}`: the subscription's plan.
    let plan: String
    /// `{date}`: the period end; `{until}`: the grace period's end.
    let billingRetry: String
    let graceCancelled: String
    let grace: String
    /// `{plan}`: the plan a failed renewal waits to charge, with its price where the sheet has it (`priced`).
    let retriedChange: String
    /// `{title}`: the plan a failed renewal would charge, not sold in this storefront: Apple ends it instead.
    let retriedNotSold: String
    let updateOrCancel: String
    let update: String
    /// `{date}`, `{title}`: the plan it renews as, not sold in this storefront.
    let renewalNotSold: String
    /// `{title}`, `{date}`: a plan change waiting for the renewal; `consentSuffix` where its raised price waits too.
    let switches: String
    let consentSuffix: String
    let endsUnlessAgreed: String
    let nextRenewal: String
    /// `{date}`: a free trial's end; `{price}`: the plan's price and period, charged then.
    let trialEnds: String
    let endsNotRenewing: String
    /// `{app}`: the app's name.
    let paysForNone: String
    let otherAppleId: String
    let boughtWithYours: String
    /// A family member's purchase shared with this Apple ID: `{date}`, its period's end.
    let sharedRenews: String
    let sharedEnds: String
    let sharedByFamily: String
    let cancel: String
    let renew: String
    /// `{title}`: the subscription, where the sheet lists more than one.
    let cancelNamed: String
    let renewNamed: String
    /// `{title}`: the plan; `{subscription}`: the subscription it changes, where the sheet lists more than one.
    let switchTo: String
    let keep: String
    let switchNamed: String
    let keepNamed: String
    /// `{title}` and `{price}`: a plan with its price and period.
    let priced: String
    let startingNow: String
    /// `{date}`: the subscription's renewal.
    let startingOn: String
    let startingAtRenewal: String

    /// The words for `locale` (`fr_FR`, `pt-BR`), by its language as `StoreWords` reads it.
    init(locale: String) {
        let language = String(locale.prefix { $0 != "_" && $0 != "-" }).lowercased()
        self = Self.languages[language] ?? Self.languages["en"]!
    }

    private init(
        heading: String, loading: String, done: String, plan: String, billingRetry: String, graceCancelled: String,
        grace: String, retriedChange: String, retriedNotSold: String, updateOrCancel: String, update: String,
        renewalNotSold: String,
        switches: String, consentSuffix: String, endsUnlessAgreed: String, nextRenewal: String, trialEnds: String,
        endsNotRenewing: String,
        paysForNone: String, otherAppleId: String, boughtWithYours: String, sharedRenews: String, sharedEnds: String,
        sharedByFamily: String, cancel: String, renew: String,
        cancelNamed: String, renewNamed: String, switchTo: String, keep: String, switchNamed: String, keepNamed: String,
        priced: String, startingNow: String, startingOn: String, startingAtRenewal: String
    ) {
        self.heading = heading
        self.loading = loading
        self.done = done
        self.plan = plan
        self.billingRetry = billingRetry
        self.graceCancelled = graceCancelled
        self.grace = grace
        self.retriedChange = retriedChange
        self.retriedNotSold = retriedNotSold
        self.updateOrCancel = updateOrCancel
        self.update = update
        self.renewalNotSold = renewalNotSold
        self.switches = switches
        self.consentSuffix = consentSuffix
        self.endsUnlessAgreed = endsUnlessAgreed
        self.nextRenewal = nextRenewal
        self.trialEnds = trialEnds
        self.endsNotRenewing = endsNotRenewing
        self.paysForNone = paysForNone
        self.otherAppleId = otherAppleId
        self.boughtWithYours = boughtWithYours
        self.sharedRenews = sharedRenews
        self.sharedEnds = sharedEnds
        self.sharedByFamily = sharedByFamily
        self.cancel = cancel
        self.renew = renew
        self.cancelNamed = cancelNamed
        self.renewNamed = renewNamed
        self.switchTo = switchTo
        self.keep = keep
        self.switchNamed = switchNamed
        self.keepNamed = keepNamed
        self.priced = priced
        self.startingNow = startingNow
        self.startingOn = startingOn
        self.startingAtRenewal = startingAtRenewal
    }

    /// The languages the sheet speaks, as `StoreWords` does (a test holds the two to the same list).
    static var spoken: Set<String> { Set(languages.keys) }

    static let languages: [String: ManageSheetWords] = [
        "en": ManageSheetWords(
            heading: "Manage my subscription", loading: "Loading…", done: "Done", plan: "Plan: {title}",
            billingRetry: "Renewal failed on {date}: no access while Apple retries the payment",
            graceCancelled: "Renewal failed on {date}; cancelled: access until {until}, then it ends",
            grace: "Renewal failed on {date}: access until {until} while Apple retries",
            retriedChange: "Renews as {plan} once the payment goes through",
            retriedNotSold: "Ends instead of renewing: {title} is not sold in this country or region",
            updateOrCancel: "Update your payment method to keep this subscription, or cancel it.",
            update: "Update your payment method to keep this subscription.",
            renewalNotSold: "Ends on {date}: {title} is not sold in this country or region",
            switches: "Switches to {title} on {date}", consentSuffix: "; ends then unless you agree to the new price",
            endsUnlessAgreed: "Ends on {date} unless you agree to the new price", nextRenewal: "Next renewal: {date}",
            trialEnds: "Free trial ends on {date}, then {price}",
            endsNotRenewing: "Ends on {date}, not renewing",
            paysForNone: "This Apple ID pays for no subscription to {app}.",
            otherAppleId: "A subscription bought with another Apple ID is managed from that Apple ID.",
            boughtWithYours: "Bought with your Apple ID: the App Store manages it.",
            sharedRenews: "Renews with its purchase on {date}", sharedEnds: "Ends on {date}",
            sharedByFamily: "Shared by your family: the family member who bought it manages it.",
            cancel: "Cancel subscription",
            renew: "Renew automatically", cancelNamed: "Cancel {title}", renewNamed: "Renew {title} automatically",
            switchTo: "Switch to {title}", keep: "Keep {title}", switchNamed: "Switch {subscription} to {title}",
            keepNamed: "Keep {title} for {subscription}", priced: "{title} ({price})", startingNow: ", starting now",
            startingOn: ", starting {date}", startingAtRenewal: ", starting at the renewal"),
        "fr": ManageSheetWords(
            heading: "Gérer l’abonnement", loading: "Chargement…", done: "OK", plan: "Formule : {title}",
            billingRetry: "Échec du renouvellement le {date} : aucun accès pendant qu’Apple retente le paiement",
            graceCancelled: "Échec du renouvellement le {date} ; annulé : accès jusqu’au {until}, puis il prend fin",
            grace: "Échec du renouvellement le {date} : accès jusqu’au {until} pendant qu’Apple retente le paiement",
            retriedChange: "Se renouvelle en {plan} une fois le paiement accepté",
            retriedNotSold: "Prend fin au lieu de se renouveler : {title} n’est pas vendu dans ce pays ou cette région",
            updateOrCancel: "Mettez à jour votre moyen de paiement pour garder cet abonnement, ou annulez-le.",
            update: "Mettez à jour votre moyen de paiement pour garder cet abonnement.",
            renewalNotSold: "Expire le {date} : {title} n’est pas vendu dans ce pays ou cette région",
            switches: "Passe à {title} le {date}",
            consentSuffix: " ; prend fin alors, sauf si vous acceptez le nouveau prix",
            endsUnlessAgreed: "Expire le {date}, sauf si vous acceptez le nouveau prix",
            nextRenewal: "Prochain renouvellement : {date}",
            trialEnds: "Essai gratuit jusqu’au {date}, puis {price}",
            endsNotRenewing: "Expire le {date}, sans renouvellement",
            paysForNone: "Cet identifiant Apple ne paie aucun abonnement à {app}.",
            otherAppleId: "Un abonnement acheté avec un autre identifiant Apple se gère depuis cet identifiant Apple.",
            boughtWithYours: "Acheté avec votre identifiant Apple : l’App Store le gère.",
            sharedRenews: "Se renouvelle avec son achat le {date}", sharedEnds: "Expire le {date}",
            sharedByFamily: "Partagé par votre famille : le membre de la famille qui l’a acheté le gère.",
            cancel: "Annuler l’abonnement", renew: "Renouveler automatiquement", cancelNamed: "Annuler {title}",
            renewNamed: "Renouveler {title} automatiquement", switchTo: "Passer à {title}", keep: "Garder {title}",
            switchNamed: "Passer {subscription} à {title}", keepNamed: "Garder {title} pour {subscription}",
            priced: "{title} ({price})", startingNow: ", dès maintenant", startingOn: ", à partir du {date}",
            startingAtRenewal: ", au renouvellement"),
        "de": ManageSheetWords(
            heading: "Abo verwalten", loading: "Wird geladen …", done: "Fertig", plan: "Abo: {title}",
            billingRetry:
                "Verlängerung am {date} fehlgeschlagen: kein Zugriff, solange Apple die Zahlung erneut versucht",
            graceCancelled: "Verlängerung am {date} fehlgeschlagen; gekündigt: Zugriff bis {until}, dann endet es",
            grace:
                "Verlängerung am {date} fehlgeschlagen: Zugriff bis {until}, während Apple die Zahlung erneut versucht",
            retriedChange: "Wird als {plan} verlängert, sobald die Zahlung durchgeht",
            retriedNotSold:
                "Endet, statt verlängert zu werden: {title} wird in diesem Land oder dieser Region nicht verkauft",
            updateOrCancel: "Aktualisiere deine Zahlungsmethode, um dieses Abo zu behalten, oder kündige es.",
            update: "Aktualisiere deine Zahlungsmethode, um dieses Abo zu behalten.",
            renewalNotSold: "Endet am {date}: {title} wird in diesem Land oder dieser Region nicht verkauft",
            switches: "Wechselt am {date} zu {title}",
            consentSuffix: "; endet dann, außer du stimmst dem neuen Preis zu",
            endsUnlessAgreed: "Endet am {date}, außer du stimmst dem neuen Preis zu",
            nextRenewal: "Nächste Verlängerung: {date}",
            trialEnds: "Gratis-Testzeitraum endet am {date}, dann {price}",
            endsNotRenewing: "Endet am {date}, keine Verlängerung",
            paysForNone: "Diese Apple-ID bezahlt kein Abo für {app}.",
            otherAppleId: "Ein mit einer anderen Apple-ID gekauftes Abo wird über jene Apple-ID verwaltet.",
            boughtWithYours: "Mit deiner Apple-ID gekauft: Der App Store verwaltet es.",
            sharedRenews: "Verlängert sich mit dem Kauf am {date}", sharedEnds: "Endet am {date}",
            sharedByFamily: "Von deiner Familie geteilt: Das Familienmitglied, das es gekauft hat, verwaltet es.",
            cancel: "Abo kündigen",
            renew: "Automatisch verlängern", cancelNamed: "{title} kündigen",
            renewNamed: "{title} automatisch verlängern",
            switchTo: "Zu {title} wechseln", keep: "{title} behalten",
            switchNamed: "{subscription} zu {title} wechseln",
            keepNamed: "{title} für {subscription} behalten", priced: "{title} ({price})", startingNow: ", ab sofort",
            startingOn: ", ab {date}", startingAtRenewal: ", ab der Verlängerung"),
        "es": ManageSheetWords(
            heading: "Gestionar suscripción", loading: "Cargando…", done: "OK", plan: "Suscripción: {title}",
            billingRetry: "La renovación falló el {date}: sin acceso mientras Apple reintenta el pago",
            graceCancelled: "La renovación falló el {date}; cancelada: acceso hasta el {until}, luego termina",
            grace: "La renovación falló el {date}: acceso hasta el {until} mientras Apple reintenta el pago",
            retriedChange: "Se renueva como {plan} cuando se procese el pago",
            retriedNotSold: "Caduca en lugar de renovarse: {title} no se vende en este país o región",
            updateOrCancel: "Actualiza tu método de pago para conservar esta suscripción, o cancélala.",
            update: "Actualiza tu método de pago para conservar esta suscripción.",
            renewalNotSold: "Caduca el {date}: {title} no se vende en este país o región",
            switches: "Cambia a {title} el {date}", consentSuffix: "; termina entonces si no aceptas el nuevo precio",
            endsUnlessAgreed: "Caduca el {date} si no aceptas el nuevo precio",
            nextRenewal: "Próxima renovación: {date}",
            trialEnds: "La prueba gratis termina el {date}, luego {price}",
            endsNotRenewing: "Caduca el {date}, sin renovación",
            paysForNone: "Este ID de Apple no paga ninguna suscripción a {app}.",
            otherAppleId: "Una suscripción comprada con otro ID de Apple se gestiona desde ese ID de Apple.",
            boughtWithYours: "Comprada con tu ID de Apple: la gestiona el App Store.",
            sharedRenews: "Se renueva con su compra el {date}", sharedEnds: "Caduca el {date}",
            sharedByFamily: "Compartida por tu familia: la gestiona el miembro de la familia que la compró.",
            cancel: "Cancelar suscripción",
            renew: "Renovar automáticamente", cancelNamed: "Cancelar {title}",
            renewNamed: "Renovar {title} automáticamente", switchTo: "Cambiar a {title}", keep: "Mantener {title}",
            switchNamed: "Cambiar {subscription} a {title}", keepNamed: "Mantener {title} en {subscription}",
            priced: "{title} ({price})", startingNow: ", desde ahora", startingOn: ", a partir del {date}",
            startingAtRenewal: ", en la renovación"),
        "it": ManageSheetWords(
            heading: "Gestisci abbonamento", loading: "Caricamento…", done: "Fine", plan: "Abbonamento: {title}",
            billingRetry: "Rinnovo non riuscito il {date}: nessun accesso mentre Apple riprova il pagamento",
            graceCancelled: "Rinnovo non riuscito il {date}; annullato: accesso fino al {until}, poi termina",
            grace: "Rinnovo non riuscito il {date}: accesso fino al {until} mentre Apple riprova il pagamento",
            retriedChange: "Si rinnova come {plan} quando il pagamento va a buon fine",
            retriedNotSold: "Scade invece di rinnovarsi: {title} non è in vendita in questo paese o regione",
            updateOrCancel: "Aggiorna il metodo di pagamento per mantenere questo abbonamento, oppure annullalo.",
            update: "Aggiorna il metodo di pagamento per mantenere questo abbonamento.",
            renewalNotSold: "Scade il {date}: {title} non è in vendita in questo paese o regione",
            switches: "Passa a {title} il {date}", consentSuffix: "; termina allora se non accetti il nuovo prezzo",
            endsUnlessAgreed: "Scade il {date} se non accetti il nuovo prezzo", nextRenewal: "Prossimo rinnovo: {date}",
            trialEnds: "La prova gratuita termina il {date}, poi {price}",
            endsNotRenewing: "Scade il {date}, senza rinnovo",
            paysForNone: "Questo ID Apple non paga alcun abbonamento a {app}.",
            otherAppleId: "Un abbonamento acquistato con un altro ID Apple si gestisce da quell’ID Apple.",
            boughtWithYours: "Acquistato con il tuo ID Apple: lo gestisce l’App Store.",
            sharedRenews: "Si rinnova con il suo acquisto il {date}", sharedEnds: "Scade il {date}",
            sharedByFamily: "Condiviso dalla tua famiglia: lo gestisce il familiare che lo ha acquistato.",
            cancel: "Annulla abbonamento", renew: "Rinnova automaticamente", cancelNamed: "Annulla {title}",
            renewNamed: "Rinnova {title} automaticamente", switchTo: "Passa a {title}", keep: "Mantieni {title}",
            switchNamed: "Passa {subscription} a {title}", keepNamed: "Mantieni {title} in {subscription}",
            priced: "{title} ({price})", startingNow: ", da subito", startingOn: ", dal {date}",
            startingAtRenewal: ", al rinnovo"),
        "ja": ManageSheetWords(
            heading: "サブスクリプションを管理", loading: "読み込み中…", done: "完了", plan: "プラン：{title}",
            billingRetry: "{date}に更新できませんでした：Appleが支払いを再試行している間はアクセスできません",
            graceCancelled: "{date}に更新できませんでした。キャンセル済み：{until}までアクセスでき、その後終了します",
            grace: "{date}に更新できませんでした：Appleが支払いを再試行している間、{until}までアクセスできます",
            retriedChange: "支払いが完了すると{plan}として更新されます",
            retriedNotSold: "更新されずに終了します：{title}はこの国または地域では販売されていません",
            updateOrCancel: "このサブスクリプションを継続するには支払い方法を更新するか、キャンセルしてください。",
            update: "このサブスクリプションを継続するには支払い方法を更新してください。",
            renewalNotSold: "{date}に終了：{title}はこの国または地域では販売されていません",
            switches: "{date}に{title}に切り替わります", consentSuffix: "。新しい価格に同意しない場合はその時点で終了します",
            endsUnlessAgreed: "新しい価格に同意しない場合は{date}に終了します", nextRenewal: "次回の更新：{date}",
            trialEnds: "無料トライアルは{date}に終了、その後{price}",
            endsNotRenewing: "{date}に終了（更新なし）", paysForNone: "このApple IDは{app}のサブスクリプションを支払っていません。",
            otherAppleId: "別のApple IDで購入したサブスクリプションは、そのApple IDから管理します。",
            boughtWithYours: "お使いのApple IDで購入：App Storeが管理します。", sharedRenews: "{date}に購入元と一緒に更新されます",
            sharedEnds: "{date}に終了",
            sharedByFamily: "ファミリーで共有：購入したファミリーメンバーが管理します。",
            cancel: "サブスクリプションをキャンセル",
            renew: "自動更新する", cancelNamed: "{title}をキャンセル", renewNamed: "{title}を自動更新する",
            switchTo: "{title}に切り替える", keep: "{title}を継続", switchNamed: "{subscription}を{title}に切り替える",
            keepNamed: "{subscription}を{title}のまま継続", priced: "{title}（{price}）", startingNow: "、今すぐ開始",
            startingOn: "、{date}から", startingAtRenewal: "、更新時から"),
        "pt": ManageSheetWords(
            heading: "Gerenciar assinatura", loading: "Carregando…", done: "OK", plan: "Plano: {title}",
            billingRetry: "Falha na renovação em {date}: sem acesso enquanto a Apple tenta o pagamento novamente",
            graceCancelled: "Falha na renovação em {date}; cancelada: acesso até {until}, depois ela termina",
            grace: "Falha na renovação em {date}: acesso até {until} enquanto a Apple tenta o pagamento novamente",
            retriedChange: "Renova como {plan} quando o pagamento for aprovado",
            retriedNotSold: "Termina em vez de renovar: {title} não é vendido neste país ou região",
            updateOrCancel: "Atualize sua forma de pagamento para manter esta assinatura, ou cancele-a.",
            update: "Atualize sua forma de pagamento para manter esta assinatura.",
            renewalNotSold: "Termina em {date}: {title} não é vendido neste país ou região",
            switches: "Muda para {title} em {date}",
            consentSuffix: "; termina então, a menos que você concorde com o novo preço",
            endsUnlessAgreed: "Termina em {date}, a menos que você concorde com o novo preço",
            nextRenewal: "Próxima renovação: {date}",
            trialEnds: "O teste grátis termina em {date}, depois {price}",
            endsNotRenewing: "Termina em {date}, sem renovação",
            paysForNone: "Este ID Apple não paga nenhuma assinatura de {app}.",
            otherAppleId: "Uma assinatura comprada com outro ID Apple é gerenciada por esse ID Apple.",
            boughtWithYours: "Comprada com seu ID Apple: a App Store a gerencia.",
            sharedRenews: "Renova com a compra em {date}", sharedEnds: "Termina em {date}",
            sharedByFamily: "Compartilhada pela sua família: o membro da família que a comprou a gerencia.",
            cancel: "Cancelar assinatura",
            renew: "Renovar automaticamente", cancelNamed: "Cancelar {title}",
            renewNamed: "Renovar {title} automaticamente", switchTo: "Mudar para {title}", keep: "Manter {title}",
            switchNamed: "Mudar {subscription} para {title}", keepNamed: "Manter {title} em {subscription}",
            priced: "{title} ({price})", startingNow: ", a partir de agora", startingOn: ", a partir de {date}",
            startingAtRenewal: ", na renovação"),
    ]
}

extension String {
    /// A sheet template with its placeholders filled, each with the byte-matching replace the store's words use.
    func filled(_ values: KeyValuePairs<String, String>) -> String {
        values.reduce(self) { text, pair in text.replacingPlainly("{\(pair.key)}", with: pair.value) }
    }
}
