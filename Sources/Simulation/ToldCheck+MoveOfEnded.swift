import BackendSim
import SimKernel

/// Invariant 9 for "Move it?" of a subscription held elsewhere as it is asked (a purchase's check that found the Apple
/// ID's subscription someone else holds, a restore that found another account's): a move is offered only of something
/// that gives access when asked. One that ended (expired, refunded, lapsed into billing retry with no grace left) has
/// nothing to move: the server's restore and transfer move nothing that ended, so "Move it?" asked the reader about a
/// move that brings nothing (fuzz seed 4946, session 36: a purchase on a new phone answered by the Apple ID's monthly in
/// billing retry, which a guest elsewhere held, was told "Move it?"). `MoveQuestionCheck` holds the question up later,
/// as the app becomes active; this judges it when told, whatever the step: by Apple's word taken then
/// (`appleEntitledWhenTold`: a grace period that ended since leaves no trace, default fuzz seed 5017) and at the instant
/// the server spoke the answer the app went by (a period that ended in between, long fuzz seed 1694).
extension ToldCheck {
    static func moveOfEndedViolation(_ outcome: ReaderOutcome, _ world: World) throws -> InvariantViolation? {
        let catalog = world.store.catalog
        let group = outcome.productId.flatMap { catalog.spec(for: $0)?.subscriptionGroup }
        let own = world.store.transactions(appleId: world.appleId)
        let shared = world.store.familySharedTransactions(appleId: world.appleId)
        let inGroup = (own + shared).filter {
            group == nil || catalog.spec(for: $0.productIdentifier)?.subscriptionGroup == group
        }
        // When told, and when the server spoke the answer the app went by (a period may end between the two).
        let instants = [outcome.at] + [spokenWhileRan(outcome, world)].compactMap { $0 }
        let subscriptions = world.store.subscriptions(appleId: world.appleId)
        for original in Set(inGroup.map(\.originalTransactionIdentifier)) {
            if outcome.appleEntitledWhenTold?.contains(original) == true { return nil }
            for at in instants {
                // Apple's records then: a period running, not revoked by then.
                let running = inGroup.contains {
                    $0.originalTransactionIdentifier == original && $0.purchaseDate <= at
                        && ($0.expiresDate.map { $0 > at } ?? true) && ($0.revocationDate.map { $0 > at } ?? true)
                }
                // In grace then, or entitled now (a resubscription the records above date later than the answer).
                let entitled = subscriptions.contains {
                    $0.originalTransactionId == original
                        && ($0.state.isEntitled || ($0.gracePeriodExpiresDate.map { $0 > at } ?? false))
                }
                // The server's word: news it has not heard yet leaves its purchase active, and the app goes by it.
                let ledgerActive = try world.backend.ledger.purchase(original)?.isActive(at: at) ?? false
                if running || entitled || ledgerActive || world.store.shareGivesAccess(original) { return nil }
            }
        }
        return InvariantViolation(
            .toldIsTrue,
            "\(world.deviceName) was told \(describe(outcome.told)), asked to move a subscription held elsewhere here, "
                + "but nothing \(world.appleId) pays for or is shared\(group.map { " in \($0)" } ?? "") gave access "
                + "then: a move brings nothing")
    }
}
