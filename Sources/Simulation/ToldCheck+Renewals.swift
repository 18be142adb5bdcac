import AppFlow
import SimKernel
import StoreSim
import Subscriptions

/// Invariant 9 for what the profile and Apple's manage sheet say of a renewal: "ends … unless you agree to the new
/// price" only where Apple would end it, not where an offer's period comes next, which Apple renews at the offer's
/// price without consent (an introductory price and an offer code said to end, session 27). Each is judged when it
/// arrives (`profile`, `manageSheet`: it changed since last judged).
extension ToldCheck {
    static func renewalViolation(_ world: World, profile: Bool, manageSheet: Bool) throws -> InvariantViolation? {
        let state = world.appState
        let screen = world.visibleScreenID
        let held = world.store.subscriptions(appleId: world.appleId)
        let renewsAnyway = { (subscription: SubscriptionRecord) in
            subscription.autoRenew && subscription.isRunning && world.store.nextOfferType(subscription) != nil
        }
        if screen == .profile, profile {
            for shown in state.subscriptions where shown.priceConsentPending == true && shown.autoRenew {
                guard let running = held.first(where: { $0.originalTransactionId == shown.originalTransactionId }),
                    renewsAnyway(running)
                else { continue }
                // The profile says what the server answered. A server that no longer holds the consent pending heard
                // Apple's news (OFFER_REDEEMED) after it answered: its word now is "renews", shown once the profile
                // loads again (fuzz seed 4102). A server still holding it pending is judged: it was told, or should
                // have been.
                guard try world.backend.ledger.purchase(running.originalTransactionId)?.priceConsentPending != false
                else { continue }
                // Apple's news of it dropped or held back by a fault: the server was not told (fuzz seed 4207).
                guard !world.store.newsWithheld.contains(running.originalTransactionId) else { continue }
                return said("the profile", shown.productId, running, world)
            }
            // "Switches to …" or "renews on" of a plan the storefront does not sell is `UnsoldRenewalCheck`'s.
        }
        if screen == .profile, profile, let shown = try sharedRenewalViolation(world) { return shown }
        if screen == .profile, profile, let shown = whoPaidViolation(world) { return shown }
        if screen == .manageSubscription, manageSheet {
            for shown in state.manageSheet ?? [] where shown.waitsForPriceConsent && shown.willAutoRenew {
                guard let running = held.first(where: { $0.productId == shown.productId && $0.isRunning }),
                    renewsAnyway(running)
                else { continue }
                return said("Apple's manage sheet", shown.productId, running, world)
            }
        }
        return nil
    }

    /// A family member's share said to renew ("renews on", "switches to") where the purchaser's renewal will not renew
    /// it: auto-renew off, a switch to a plan the family may not share, a raised price waiting for the purchaser's
    /// consent. The member loses access that day (session 30, h11). A server that heard otherwise after it answered, or
    /// whose news a fault held back or is still on its way (the world not idle), is not judged, as above.
    private static func sharedRenewalViolation(_ world: World) throws -> InvariantViolation? {
        guard world.scheduler.isIdle else { return nil }
        let state = world.appState
        for shown in state.subscriptions
        where shown.autoRenew && !shown.billingIssue && shown.active && !state.renewalNotSoldHere(shown) {
            guard let original = shown.originalTransactionId, world.store.shareRenews(original) == false,
                try world.backend.ledger.purchase(original)?.autoRenew != false,
                !world.store.newsWithheld.contains(original)
            else { continue }
            return InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName)'s profile says the family share \(original) of \(shown.productId) renews, but the "
                    + "purchaser's renewal does not renew it: it ends on its date")
        }
        return nil
    }

    /// Invariant 9 of the profile's dates, settled or not: a plan line states as ahead ("renews on", "ends on",
    /// "switches to … on") no period end the phone's clock had passed when it last handled an event. Opened past a
    /// refused price's end, before the server's answer, it said "ends on 2026-03-09 unless you agree" (session 30).
    static func pastDateViolation(_ world: World) -> InvariantViolation? {
        guard world.isAppRunning, world.visibleScreenID == .profile, let drawn = world.appState.clock else {
            return nil
        }
        let rows = world.screen.rows.map(\.text)
        let listed = world.appState.profileSubscriptions
        let day = { (expires: Int64) in SimInstant(milliseconds: expires).dateDescription }
        for shown in listed where !shown.billingIssue {
            guard let expires = shown.expires, expires <= drawn else { continue }
            let date = day(expires)
            let ahead = rows.filter { text in
                text.contains(" on \(date)") && ["renews on", "ends on", "switches to"].contains { text.contains($0) }
            }
            // A line is its plan's, not the date's: another plan listed whose end falls later that same day, not yet
            // passed, is rightly said to renew or end on it. Each plan draws one line, so only more such lines than
            // those plans state a passed end as ahead (fuzz seed 4394: a family member's own trial, ending 1.7 s after
            // the purchaser's share of the same plan, said "renews on" beside the share's "being checked").
            let dueLaterThatDay = listed.filter { other in
                other.active && !other.billingIssue && other.expires.map { $0 > drawn && day($0) == date } == true
            }
            guard ahead.count > dueLaterThatDay.count, let ahead = ahead.first else { continue }
            return InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName)'s profile says \"\(ahead)\" at \(SimInstant(milliseconds: drawn)), past that end")
        }
        return nil
    }

    private static func said(_ where: String, _ productId: String, _ running: SubscriptionRecord, _ world: World)
        -> InvariantViolation
    {
        InvariantViolation(
            .toldIsTrue,
            "\(world.deviceName)'s \(`where`) says \(productId) ends unless the reader agrees to the new price, but "
                + "Apple renews \(running.originalTransactionId) at an offer's price next (offer type "
                + "\(world.store.nextOfferType(running).map(String.init) ?? "?"))")
    }
}
