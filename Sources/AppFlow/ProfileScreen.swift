import SimKernel
import Subscriptions

extension ScreenBuilder {
    /// The profile: who the reader is, what they hold, the billing banner, and the account actions.
    static func profile(_ state: AppState) -> Built {
        var rows = [Row(.heading, "Profile")]
        // Past its grace, a subscription Apple still retries gives no access but will be charged: it is said, and
        // "Manage my subscription" stays so the reader can cancel it (session 24). So is one whose plan brings no
        // level (the owner dropped it from the config, session 28).
        // One the server listed as running whose end the clock has passed, with nothing to renew it (cancelled, a raised
        // price not agreed to, a plan not sold here), ended: said so, with nothing to manage (session 30).
        let listed = state.profileSubscriptions.filter { $0.active || $0.billingIssue }
        let ended = listed.filter { state.endedByTheClock($0) }
        let charged = listed.filter { !state.endedByTheClock($0) }
        // Access that only a family member's shared purchase gives: nobody on this phone subscribed (session 31, h10).
        let running = charged.filter(\.active)
        let sharedOnly = !running.isEmpty && running.allSatisfy { $0.familyShared == true }
        switch state.access.identity {
        case .none: rows.append(Row(.text, "Not signed in."))
        case .anonymous where state.access.isSubscriber && sharedOnly:
            rows.append(Row(.text, "Shared by your family, on this phone without an account."))
        case .anonymous where state.access.isSubscriber:
            rows.append(Row(.text, "Subscribed on this phone, without an account."))
        case .anonymous where !charged.isEmpty: rows.append(Row(.text, "Not signed in."))
        // The phone keeps its anonymous identity after the subscription ended, was refunded or moved away.
        case .anonymous: rows.append(Row(.text, "Not signed in. No subscription is active on this phone."))
        case .account(let email): rows.append(Row(.text, "Signed in as \(email)."))
        }
        let levels = state.access.levels.sorted().map(\.rawValue)
        let free = "free \(state.app.words.other) only"
        rows.append(Row(.muted, "Access: " + (levels.isEmpty ? free : levels.joined(separator: ", "))))
        for subscription in charged {
            let date = subscription.expires.map { SimInstant(milliseconds: $0).dateDescription } ?? "never"
            // Never the product's identifier: where no answer of this launch titled the plan (one this storefront does
            // not sell, after a restart there), it is "Subscription" (session 38).
            let title = title(of: subscription.productId, state, unknown: "Subscription")
            // In billing retry the renewal date has passed: "renews on" would promise a day already gone. A raised
            // price not agreed to ends it then, as Apple's sheet says.
            // The renewal Apple retries is the plan change waiting for it: what it charges once the payment works
            // (session 27: "renewal failed" of the old plan, then a year charged).
            let failed =
                subscription.renewsAs.map {
                    "renewal as \(self.title(of: $0, state, unknown: "the plan chosen")) failed"
                } ?? "renewal failed"
            let line: String
            if state.pastItsEnd(subscription) {
                // Apple renews it, or retries, at that moment: the server's word on which has not come yet.
                line = "\(title): renewal of \(date) being checked…"
            } else if subscription.billingIssue && !subscription.autoRenew {
                // Cancelled after its renewal failed: Apple retries nothing, and a new payment method keeps nothing.
                line = "\(title): renewal failed on \(date); cancelled, it ends when Apple's grace period does"
            } else if subscription.billingIssue && state.renewalNotSoldHere(subscription) {
                // Retried as a plan this storefront does not sell: Apple charges nothing and ends it once the payment
                // goes through, so "Apple is retrying" and "Update it … to keep" would promise a renewal (session 40).
                let plan = subscription.renewsAs == nil ? "this plan" : "the plan chosen for its renewal"
                line = "\(title): renewal failed on \(date); it ends: \(plan) is not sold in this country or region"
            } else if subscription.billingIssue && !subscription.active {
                line = "\(title): \(failed) on \(date); no access while Apple retries the payment"
            } else if subscription.billingIssue {
                line = "\(title): \(failed) on \(date); Apple is retrying"
            } else if !subscription.autoRenew {
                line = "\(title): ends on \(date)"
            } else if state.renewalNotSoldHere(subscription) {
                // It renews as a plan this storefront does not sell, a switch or its own: Apple ends the subscription
                // then (EXPIRED/PRODUCT_NOT_FOR_SALE), as its sheet says, and StoreKit gives no title of a plan it does
                // not sell (sessions 27, 39).
                let plan = subscription.renewsAs == nil ? "this plan" : "the plan chosen for its renewal"
                line = "\(title): ends on \(date): \(plan) is not sold in this country or region"
            } else if let next = subscription.renewsAs {
                // A plan change Apple keeps for the next renewal: it renews as the other plan, as its sheet says, if
                // the reader agrees to that plan's price raised since.
                let consent =
                    subscription.priceConsentPending == true ? "; ends then unless you agree to the new price" : ""
                line =
                    "\(title): switches to \(self.title(of: next, state, unknown: "the plan chosen")) on \(date)\(consent)"
            } else if subscription.priceConsentPending == true {
                line = "\(title): ends on \(date) unless you agree to the new price"
            } else if subscription.inFreeTrial == true && !state.trialToldAsRenewal {
                // Apple's sheet says the trial ends then and what it charges: "renews on" said neither (session 44).
                line = "\(title): free trial ends on \(date), then \(chargeAfterTrial(subscription.productId, state))"
            } else {
                line = "\(title): renews on \(date)"
            }
            rows.append(Row(.text, line))
            if subscription.familyShared == true {
                rows.append(Row(.muted, "Shared by your family: the family member who bought it pays for it."))
            }
            if subscription.billingIssue && subscription.autoRenew && !state.renewalNotSoldHere(subscription) {
                rows.append(
                    Row(.banner, "Your payment method failed. Update it in the App Store to keep your subscription."))
            }
        }
        for subscription in ended {
            let date = subscription.expires.map { SimInstant(milliseconds: $0).dateDescription } ?? "?"
            rows.append(
                Row(.text, "\(title(of: subscription.productId, state, unknown: "Subscription")): ended on \(date)"))
        }
        if !state.access.isSubscriber && charged.contains(where: \.active) {
            // Apple renews it, yet the server gives it no level here: said, so the reader can decide to cancel it.
            rows.append(Row(.muted, "Your subscription gives no access in this app now."))
        }
        if state.isSignedIn && !state.access.unmovedLevels.isEmpty {
            rows.append(Row(.banner, "Your subscription is on this phone, not on your account yet."))
            if let until = state.access.moveRefusedUntil {
                rows.append(
                    Row(
                        .muted,
                        "It has moved too often recently (at most \(moveLimitWords)): it can move to your account from "
                            + "\(until.dateDescription)."))
            }
        }
        rows.append(Row(.spacer))
        if state.isSignedIn && !state.access.unmovedLevels.isEmpty && state.access.moveRefusedUntil == nil {
            rows.append(
                Row(.button, "Move my subscription to my account", choice: .acceptTransfer(.anonymousToAccount)))
        }
        if state.access.isSubscriber || !charged.isEmpty {
            rows.append(Row(.button, "Manage my subscription", choice: .manageSubscription))
        }
        rows.append(Row(.button, "Restore purchase", choice: .restore))
        if state.isSignedIn {
            rows.append(Row(.button, "Log out", choice: .logOut))
        } else {
            // No "Log out" for a reader not signed in: it could only say there was nothing to log out of (three
            // testers in session 24 read it as a broken button).
            rows += [
                Row(.button, "Log in", choice: .openLogin(.plain)),
                Row(.button, "Create an account", choice: .openSignup(.plain)),
            ]
        }
        let screen = ScreenModel(
            id: .profile, title: state.app.name, rows: rows,
            keys: [KeyHint("↑↓", "move"), KeyHint("Enter", "choose"), KeyHint("Esc", "back")])
        return Built(screen: screen)
    }

    /// What a trial's end charges, in the words of this launch's products answer: the plan's price per period, or, with
    /// no answer giving it, no price at all (the profile never states a price the store did not give).
    private static func chargeAfterTrial(_ productId: String, _ state: AppState) -> String {
        guard let product = state.offers?.first(where: { $0.productId == productId })?.product,
            let period = product.subscriptionPeriod
        else { return "Apple charges the plan's price" }
        return "\(product.localizedPrice) per \(period)"
    }

    /// The manage sheet's row for another plan: what `World.perform(.changePlan)` presses. Where the sheet lists more
    /// than one subscription, it names the one it changes (two groups may have plans of one name, session 27).
    static func switchPlanLabel(_ productId: String, _ state: AppState) -> String {
        let sheet = (state.manageSheet ?? []).filter { !$0.sharedByFamily }
        let subscription = sheet.first { $0.plans.contains { $0.productId == productId } } ?? sheet.first
        // Apple's price now, as its sheet holds it: the paywall's may be older than a raise.
        let plan = subscription?.plans.first { $0.productId == productId }
        // The plan it is on, while a change waits for the renewal: choosing it undoes the change.
        let keeps = subscription.map { $0.productId == productId && $0.renewsInto != nil } ?? false
        let title = plan?.title ?? title(of: productId, state)
        let words = ManageSheetWords(locale: state.locale)
        let starts = keeps ? "" : plan.map { starting($0, subscription, words) } ?? ""
        let label: String
        if sheet.count > 1, let subscription {
            label = (keeps ? words.keepNamed : words.switchNamed).filled([
                "title": title, "subscription": subscription.title,
            ])
        } else {
            label = (keeps ? words.keep : words.switchTo).filled(["title": title])
        }
        return (plan.map { words.priced.filled(["title": label, "price": $0.terms]) } ?? label) + starts
    }

    /// When a switch takes effect, as Apple's sheet says it: now, or at the subscription's renewal, on its date. Keeping
    /// the plan it is on only undoes the change waiting, and says nothing of it.
    private static func starting(
        _ plan: ManagedPlan, _ subscription: ManagedSubscription?, _ words: ManageSheetWords
    ) -> String {
        guard !plan.startsNow else { return words.startingNow }
        guard let subscription else { return words.startingAtRenewal }
        return words.startingOn.filled(["date": SimInstant(milliseconds: subscription.expires).dateDescription])
    }

    /// A subscription's own buttons on Apple's sheet: auto-renew, then its group's other plans. Named where the sheet
    /// lists more than one: Apple's Subscriptions page has an entry per subscription, and one cancel ended both
    /// groups' (session 27).
    private static func controls(of subscription: ManagedSubscription, named: Bool, _ state: AppState) -> [Row] {
        let words = ManageSheetWords(locale: state.locale)
        let label: String
        switch (subscription.willAutoRenew, named) {
        case (true, false): label = words.cancel
        case (false, false): label = words.renew
        case (true, true): label = words.cancelNamed.filled(["title": subscription.title])
        case (false, true): label = words.renewNamed.filled(["title": subscription.title])
        }
        var rows = [
            Row(.button, label, choice: .setAutoRenew(!subscription.willAutoRenew, productId: subscription.productId))
        ]
        for offer in switchablePlans(subscription) {
            // A choice, not a button: a long localized title wraps inside the phone, as on the paywall.
            rows.append(
                Row(.choice, switchPlanLabel(offer.productId, state), choice: .changePlan(productId: offer.productId)))
        }
        return rows
    }

    /// The plans Apple's sheet offers for `subscription`: the group's others, and the plan it is on while a change
    /// waits for the renewal (to keep it); none in billing retry, where Apple changes nothing until the payment works.
    static func switchablePlans(_ subscription: ManagedSubscription) -> [ManagedPlan] {
        guard !subscription.inBillingRetry else { return [] }
        return subscription.plans.filter { plan in
            plan.productId != subscription.renewsInto
                && (plan.productId != subscription.productId || subscription.renewsInto != nil)
        }
    }

    /// Apple's "Manage subscriptions" sheet, opened by "Manage my subscription": what the phone's Apple ID pays
    /// for, as the App Store holds it (`AppState.manageSheet`), with auto-renew and the group's other plans.
    static func manageSubscription(_ state: AppState) -> Built {
        // In the phone's language, as Apple's payment and price-consent sheets are (session 32, h13).
        let words = ManageSheetWords(locale: state.locale)
        var rows = [Row(.heading, words.heading)]
        guard let sheet = state.manageSheet else {
            rows += [Row(.muted, words.loading), Row(.spacer), Row(.button, words.done, choice: .done)]
            return manageSheet(rows)
        }
        // A family member's purchase shared with this Apple ID: listed, with nothing to press (session 31, h10).
        let (own, shared) = (sheet.filter { !$0.sharedByFamily }, sheet.filter(\.sharedByFamily))
        for subscription in own {
            let date = SimInstant(milliseconds: subscription.expires).dateDescription
            rows.append(Row(.text, words.plan.filled(["title": subscription.title])))
            // Retried as a plan not sold here, it ends once the payment goes through: no payment method keeps it.
            let unsold = subscription.willAutoRenew && subscription.renewalNotSold
            if subscription.inBillingRetry {
                rows.append(Row(.muted, words.billingRetry.filled(["date": date])))
                rows += retriedChange(subscription, words)
                if !unsold { rows.append(Row(.banner, words.updateOrCancel)) }
            } else if let grace = subscription.graceExpires, !subscription.willAutoRenew {
                let until = SimInstant(milliseconds: grace).dateDescription
                rows.append(Row(.muted, words.graceCancelled.filled(["date": date, "until": until])))
            } else if let grace = subscription.graceExpires {
                let until = SimInstant(milliseconds: grace).dateDescription
                rows.append(Row(.muted, words.grace.filled(["date": date, "until": until])))
                rows += retriedChange(subscription, words)
                if !unsold { rows.append(Row(.banner, words.update)) }
            } else if subscription.willAutoRenew && subscription.renewalNotSold {
                let plan = subscription.renewsIntoTitle ?? subscription.title
                rows.append(Row(.muted, words.renewalNotSold.filled(["date": date, "title": plan])))
            } else if subscription.willAutoRenew, let next = subscription.renewsIntoTitle {
                // A plan change already made: the sheet says so rather than offering the same switch again, and that
                // the new plan's raised price, if raised since, waits for consent.
                let consent = subscription.waitsForPriceConsent ? words.consentSuffix : ""
                rows.append(Row(.muted, words.switches.filled(["title": next, "date": date]) + consent))
            } else if subscription.willAutoRenew && subscription.waitsForPriceConsent {
                // Apple renews a raised price only with consent: "Next renewal" would promise what may not come.
                rows.append(Row(.muted, words.endsUnlessAgreed.filled(["date": date])))
            } else if subscription.willAutoRenew && subscription.inFreeTrial,
                let own = subscription.plans.first(where: { $0.productId == subscription.productId })
            {
                // Apple says when a free trial ends and what it charges then: "Next renewal" said neither (helper E,
                // session 41).
                rows.append(Row(.muted, words.trialEnds.filled(["date": date, "price": own.terms])))
            } else {
                let line = subscription.willAutoRenew ? words.nextRenewal : words.endsNotRenewing
                rows.append(Row(.muted, line.filled(["date": date])))
            }
            if own.count > 1 { rows += controls(of: subscription, named: true, state) + [Row(.spacer)] }
        }
        if !own.isEmpty {
            rows.append(Row(.muted, words.boughtWithYours))
        } else if shared.isEmpty {
            rows.append(Row(.text, words.paysForNone.filled(["app": state.app.name])))
            rows.append(Row(.muted, words.otherAppleId))
        }
        for subscription in shared {
            let date = SimInstant(milliseconds: subscription.expires).dateDescription
            if !own.isEmpty { rows.append(Row(.spacer)) }
            rows.append(Row(.text, words.plan.filled(["title": subscription.title])))
            let line = subscription.willAutoRenew ? words.sharedRenews : words.sharedEnds
            rows.append(Row(.muted, line.filled(["date": date])))
            rows.append(Row(.muted, words.sharedByFamily))
        }
        rows.append(Row(.spacer))
        if own.count == 1, let only = own.first { rows += controls(of: only, named: false, state) }
        rows.append(Row(.button, words.done, choice: .done))
        return manageSheet(rows)
    }

    /// The plan change a failed renewal waits with: Apple charges that plan, at its price, once the payment goes
    /// through (session 27: the sheet said only "Keep Premium Monthly ($4.99)", then charged $39.99 for a year). One
    /// this storefront does not sell is never charged: Apple ends the subscription instead (session 40).
    private static func retriedChange(_ subscription: ManagedSubscription, _ words: ManageSheetWords) -> [Row] {
        if subscription.willAutoRenew && subscription.renewalNotSold {
            let title = subscription.renewsIntoTitle ?? subscription.title
            return [Row(.muted, words.retriedNotSold.filled(["title": title]))]
        }
        guard subscription.willAutoRenew, let next = subscription.renewsInto else { return [] }
        let title = subscription.renewsIntoTitle ?? next
        let plan =
            subscription.plans.first { $0.productId == next }
            .map { words.priced.filled(["title": title, "price": $0.localizedPrice]) } ?? title
        return [Row(.muted, words.retriedChange.filled(["plan": plan]))]
    }

    private static func manageSheet(_ rows: [Row]) -> Built {
        let screen = ScreenModel(
            id: .manageSubscription, title: "App Store", rows: rows,
            keys: [KeyHint("↑↓", "move"), KeyHint("Enter", "choose"), KeyHint("Esc", "back")])
        return Built(screen: screen)
    }
}

extension AppState {
    /// The plan `subscription` renews as at its period's end, the plan change waiting or else its own plan, is one the
    /// App Store's answer in this storefront named as not sold here: Apple ends it then (EXPIRED/PRODUCT_NOT_FOR_SALE).
    /// Its own plan too: a yearly plan bought in the United States, then the storefront moved to France, which does not
    /// sell it, was said to renew on the profile while Apple's sheet said it ends (session 39). False before that
    /// answer, or after one that failed: the app does not know.
    public func renewalNotSoldHere(_ subscription: SubscriptionSummary) -> Bool {
        guard let plan = subscription.renewsAs ?? (self.readsOnlySwitchesForSale ? nil : subscription.productId)
        else { return false }
        return self.notSoldHere.contains(plan)
    }

    /// `subscription`, listed as running and not in billing retry, has a period end the clock passed (`clock`): the
    /// list is older than that end, and "renews on" or "ends on" would state as ahead a day gone.
    public func pastItsEnd(_ subscription: SubscriptionSummary) -> Bool {
        guard !subscription.billingIssue, let expires = subscription.expires, let clock = self.clock else {
            return false
        }
        return expires <= clock
    }

    /// Past its end (`pastItsEnd`) with nothing to renew it: auto-renew off, a raised price not agreed to, or a
    /// switch to a plan this storefront does not sell. Apple ended it, whatever the server has heard yet.
    public func endedByTheClock(_ subscription: SubscriptionSummary) -> Bool {
        pastItsEnd(subscription)
            && (!subscription.autoRenew || subscription.priceConsentPending == true
                || renewalNotSoldHere(subscription))
    }

    /// Apple's manage sheet's rows as they read in the phone's language, whatever is over them: what `ManageSheetTruth`
    /// holds to the same sheet's rows in English.
    public var manageSheetRows: [Row] { ScreenBuilder.manageSubscription(self).screen.rows }

    /// The manage sheet's "Switch to …" row for `productId`, as `World.perform` finds it.
    public func switchPlanLabel(_ productId: String) -> String { ScreenBuilder.switchPlanLabel(productId, self) }
    /// The plans Apple's sheet offers now, for each of its subscriptions (`ScreenBuilder.switchablePlans`).
    public var switchablePlans: [ManagedPlan] { (self.manageSheet ?? []).flatMap(ScreenBuilder.switchablePlans) }
}
