import AppFlow
import SimKernel
import StoreSim
import Subscriptions

/// Seed 000: "'Manage my subscription' opens Apple's settings if the subscription was bought on an iPhone". The
/// sheet is Apple's: it lists what the App Store holds for the phone's Apple ID, whichever account the backend gave it
/// to, so a phone signed in to an account another Apple ID paid for offers nothing there to cancel. Judged by `Device`
/// as the sheet shows (invariant 13).
enum ManageSheetTruth {
    /// The sheet as the app shows it.
    static func shown(_ sheet: ManageSheet) -> [ManagedSubscription] {
        let shared = sheet.sharedByFamily.map {
            var shown = ManagedSubscription(
                productId: $0.productId, title: $0.productTitle, expires: $0.expiresDate.milliseconds,
                willAutoRenew: $0.willAutoRenew)
            shown.sharedByFamily = true
            return shown
        }
        return sheet.entries.map {
            var shown = ManagedSubscription(
                productId: $0.productId, title: $0.productTitle, expires: $0.expiresDate.milliseconds,
                willAutoRenew: $0.willAutoRenew, graceExpires: $0.gracePeriodExpiresDate?.milliseconds,
                waitsForPriceConsent: $0.waitsForPriceConsent, renewsInto: $0.renewsInto,
                renewsIntoTitle: $0.renewsIntoTitle)
            shown.inBillingRetry = $0.inBillingRetry
            shown.renewalNotSold = $0.renewalNotSold
            shown.inFreeTrial = $0.inFreeTrial
            shown.plans = $0.plans.map {
                ManagedPlan(
                    productId: $0.productId, title: $0.title, localizedPrice: $0.localizedPrice, terms: $0.terms,
                    startsNow: $0.startsNow)
            }
            return shown
        } + shared
    }

    /// A subscription's cancel (or "Renew automatically") pressed on the sheet changes that subscription's auto-renew
    /// alone: Apple's Subscriptions page has an entry per subscription, and one press ended two groups' (session 27).
    static func changedBeside(
        _ productId: String, before: [SubscriptionRecord], after: [SubscriptionRecord]
    ) -> String? {
        let changed = after.filter { now in
            before.contains { $0.originalTransactionId == now.originalTransactionId && $0.autoRenew != now.autoRenew }
        }
        guard let beside = changed.first(where: { $0.productId != productId }) else { return nil }
        return "auto-renew pressed for \(productId) on Apple's sheet also turned "
            + "\(beside.autoRenew ? "on" : "off") \(beside.productId) (\(beside.originalTransactionId))"
    }

    /// "Switch to …" chosen on the sheet: Apple now runs `productId`, or renews into it, with auto-renew on. A switch
    /// after cancelling did nothing while the sheet took it (session 24). Nil when kept, or when nothing of the group
    /// ran (nothing to switch).
    static func switchNotKept(to productId: String, group: String?, holding subscriptions: [SubscriptionRecord])
        -> String?
    {
        guard let running = subscriptions.first(where: { $0.groupId == group && $0.isRunning }) else { return nil }
        let kept =
            (running.productId == productId || running.autoRenewProductId == productId) && running.autoRenew
        guard !kept else { return nil }
        return "the reader chose \"Switch to \(productId)\" on Apple's manage sheet, but Apple "
            + (running.autoRenew
                ? "renews \(running.originalTransactionId) as \(running.autoRenewProductId)"
                : "ends \(running.originalTransactionId) unrenewed")
    }

    /// What Apple may still charge the Apple ID for (auto-renew on, not ended: billing retry too) that its sheet leaves
    /// out: a subscriber who cannot cancel it there is charged without a way to say no (session 24). Nil when none.
    static func leftOut(_ sheet: ManageSheet, holding subscriptions: [SubscriptionRecord]) -> String? {
        let listed = Set(sheet.entries.map(\.originalTransactionId))
        let missing = subscriptions.filter {
            $0.autoRenew && $0.state != .expired && $0.state != .revoked && !listed.contains($0.originalTransactionId)
        }
        guard !missing.isEmpty else { return nil }
        return "Apple's manage sheet leaves out "
            + missing.map { "\($0.productId) (\($0.originalTransactionId), \($0.state))" }.joined(separator: ", ")
            + ", which Apple may still charge \(sheet.appleId) for"
    }

    /// The account's subscriptions in the backend's words: what the planted `manage-sheet-from-account` shows.
    static func fromAccount(
        _ subscriptions: [SubscriptionSummary], autoRenew: Bool?, titled title: (String) -> String
    ) -> [ManagedSubscription] {
        subscriptions.filter(\.active).map {
            ManagedSubscription(
                productId: $0.productId, title: title($0.productId), expires: $0.expires ?? 0,
                willAutoRenew: autoRenew ?? $0.autoRenew, graceExpires: $0.billingIssue ? $0.expires : nil)
        }
    }

    /// What the phone shows that the App Store does not hold; nil when the sheet is the store's.
    static func broken(shown: [ManagedSubscription]?, store: ManageSheet) -> String? {
        guard let shown else { return nil }
        let truth = Self.shown(store)
        guard shown != truth else { return nil }
        return "Apple's manage sheet lists \(describe(shown)) but the App Store holds \(describe(truth)) for "
            + store.appleId
    }

    /// Apple's manage sheet in the phone's language says, row for row, what it says in English: the same rows, each of
    /// the same kind doing the same thing, with the same dates, titles, prices and periods. `broken` judges the sheet's
    /// facts by structure, in any language; this judges the words a reader of another language reads, which no check
    /// read (session 32: the sheet was English on a French phone; a translated line that drops or swaps a date, or a
    /// button that reads as another, lies in that language alone). Nil in English, or when they agree.
    static func saysOtherwise(_ state: AppState) -> String? {
        guard state.manageSheet != nil, !state.locale.hasPrefix("en") else { return nil }
        var english = state
        english.locale = "en_US"
        return saysOtherwise(
            state.manageSheetRows, english: english.manageSheetRows, facts: facts(state), locale: state.locale)
    }

    /// Where `rows` say something else than `english`, the same sheet's rows in English.
    static func saysOtherwise(_ rows: [Row], english: [Row], facts: [String], locale: String) -> String? {
        guard rows.count == english.count else {
            return "Apple's manage sheet has \(rows.count) rows in \(locale), \(english.count) in English"
        }
        let said = { (text: String) in facts.filter { holds(text, $0) } }
        for (row, english) in zip(rows, english)
        where row.kind != english.kind || row.choice != english.choice || said(row.text) != said(english.text) {
            return "Apple's manage sheet in \(locale) says \"\(row.text)\" where in English it says \"\(english.text)\""
        }
        return nil
    }

    /// Whether `text` holds `fact`'s bytes: the stdlib's `contains` searched by characters, 3.5 % of a fuzz run's
    /// instructions once every session drew a language (session 33). Both are the sheet's own words, built by this
    /// program in one normal form, where bytes and characters agree.
    static func holds(_ text: String, _ fact: String) -> Bool {
        var text = text
        var fact = fact
        return text.withUTF8 { text in
            fact.withUTF8 { fact in
                guard let first = fact.first else { return true }
                guard fact.count <= text.count else { return false }
                return (0...(text.count - fact.count)).contains { start in
                    text[start] == first && text[start..<start + fact.count].elementsEqual(fact)
                }
            }
        }
    }

    /// What the sheet is given to say: the app's name, and each subscription's titles, dates and plans' prices.
    private static func facts(_ state: AppState) -> [String] {
        var facts: Set<String> = [state.app.name]
        for subscription in state.manageSheet ?? [] {
            let dates = [subscription.expires] + (subscription.graceExpires.map { [$0] } ?? [])
            facts.formUnion(dates.map { SimInstant(milliseconds: $0).dateDescription })
            facts.insert(subscription.title)
            if let next = subscription.renewsIntoTitle { facts.insert(next) }
            for plan in subscription.plans { facts.formUnion([plan.title, plan.terms, plan.localizedPrice]) }
        }
        return facts.filter { !$0.isEmpty }.sorted()
    }

    private static func describe(_ list: [ManagedSubscription]) -> String {
        guard !list.isEmpty else { return "no subscription" }
        return list.map {
            let renews = $0.willAutoRenew ? $0.waitsForPriceConsent ? "renews if agreed to" : "renews" : "ends"
            return "\($0.productId) (\(renews) \(SimInstant(milliseconds: $0.expires).dateDescription))"
        }.joined(separator: ", ")
    }
}
