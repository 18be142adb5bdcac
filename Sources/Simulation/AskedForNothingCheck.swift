import StoreSim

/// Invariant 3 under Ask to Buy: a payment of the plan the Apple ID already pays for, running and renewing as it is,
/// charges nothing ("You're currently subscribed to this"), so no parent is asked to approve it. The kids app's second
/// phone, not yet told of the family's subscription, sent a parent a request for the plan they paid for, and the
/// reader waited for approval of nothing (session 35). Judged once per request, at the end of the step that made it,
/// against the Apple ID's subscriptions then; a request a planned fault deferred (`inject payment deferred`) is the
/// tester's, whatever it would charge.
struct AskedForNothingCheck {
    /// The requests already judged (or there when the monitor began).
    private var seen: Set<String>

    init(world: World) {
        seen = Set(world.store.pendingAskToBuy.map(\.identifier))
    }

    mutating func check(_ context: StepContext) -> [InvariantViolation] {
        let store = context.world.store
        var found: [InvariantViolation] = []
        for request in store.pendingAskToBuy where seen.insert(request.identifier).inserted {
            guard request.lapsedAt == nil, !request.hasOffer, !request.deferredByFault,
                store.chargesNothing(request.product, appleId: request.appleId, offerId: nil)
            else { continue }
            found.append(
                InvariantViolation(
                    .noDoubleCharge,
                    "a parent was asked to approve \(request.product.productIdentifier) for \(request.appleId) "
                        + "(\(request.identifier)), the plan the Apple ID already pays for: Apple charges nothing for it"
                ))
        }
        return found
    }
}
