import SimKernel
import StoreSim

/// Invariant 10, a paying reader keeps access, of a renewal: Apple charged a renewal of a subscription the phone's
/// identity owns while the phone's app ran, so once the world settled the phone shows that subscription's levels. The
/// app learns an ordinary renewal when the levels' end comes (it asks the server); a recovery from a billing issue past
/// the grace period left no end to wait for, and a reader who paid again stayed locked out, shown ads and sold the plan
/// they paid for, while the monitor judged the phone only after a restart or a return to the foreground (session 34).
/// A family member's share renewed with the purchaser's is judged on the member's phone the same way: the member stayed
/// locked out after the purchaser's recovery (session 35). A fault since the charge excuses it, as a phone that asked
/// and failed learns it when it next asks.
enum RenewalReachesCheck {
    static func violations(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard context.settled, world.isAppRunning, let launched = world.device.queue.observingSince else { return [] }
        return InvariantViolation.checking(.payingKeepsAccess) {
            let ledger = world.backend.ledger
            var owners: Set<String> = []
            switch world.appState.access.identity {
            case .none: break
            case .anonymous(let id): owners.insert(id)
            case .account(let email): if let id = try ledger.identityId(email: email) { owners.insert(id) }
            }
            if let guest = world.device.storage.anonymousIdentity?.id { owners.insert(guest) }
            guard !owners.isEmpty else { return [] }
            // Only a plan whose levels the phone lacks is judged below: the others' charges are not gathered (read once,
            // the phone's levels were a set built for each subscription).
            let phoneLevels = context.phoneLevels
            let lacking = { (productId: String) in context.levels(of: productId).map { !$0.isSubset(of: phoneLevels) } }
            var renewed: [(id: String, productId: String, charges: [TransactionRecord])] = context.paid.compactMap {
                subscription in
                guard lacking(subscription.productId) == true else { return nil }
                let id = subscription.originalTransactionId
                return (id, subscription.productId, context.charged.filter { $0.originalTransactionIdentifier == id })
            }
            let shares = world.store.familySharedTransactions(appleId: world.appleId)
            for id in Set(shares.map(\.originalTransactionIdentifier)).sorted() where world.store.shareGivesAccess(id) {
                let charges = shares.filter { $0.originalTransactionIdentifier == id }
                if let latest = charges.last, lacking(latest.productIdentifier) == true {
                    renewed.append((id, latest.productIdentifier, charges))
                }
            }
            var found: [InvariantViolation] = []
            for (id, productId, unsorted) in renewed {
                let charges = unsorted.sorted { $0.purchaseDate < $1.purchaseDate }
                guard let latest = charges.last, charges.count > 1, latest.transactionReason == "RENEWAL",
                    latest.revocationDate == nil, latest.purchaseDate >= launched,
                    let levels = context.levels(of: productId), !levels.isSubset(of: phoneLevels),
                    let owner = try ledger.purchase(id)?.ownerId, owners.contains(owner),
                    // The phone heard the server on the owner during the period before, with no fault since, and the
                    // reader was told of no failure then: it knew the subscription. One that never did (a check that
                    // failed, the reader told to restore) learns of it when it next asks, renewal or not.
                    let said = world.words.saidAt(on: world.deviceName, identityId: owner),
                    said >= charges[charges.count - 2].purchaseDate.milliseconds,
                    // And heard it once the server knew the owner holds it: an answer sent before Apple's news gave the
                    // owner the purchase said nothing of it (a purchase resolved outside the app while another phone of
                    // the account asked, fuzz seed 456 in session 35).
                    let owned = try ledger.ownedSince(id), said >= owned.milliseconds,
                    // And after the server's last change to the purchase before the renewal: an answer given before
                    // the server learned of a resubscription (Apple's SUBSCRIBED failed and came again an hour later)
                    // spoke of the purchase as it had been, and left the phone no levels' end to ask again at (long
                    // fuzz seed 2000 in session 41). Nothing tells a running app of an ordinary renewal.
                    let changed = try ledger.lastChanged(id, before: latest.purchaseDate),
                    said >= changed.milliseconds,
                    !context.faultSince(SimInstant(milliseconds: min(said, latest.purchaseDate.milliseconds))),
                    !PayingCheck.toldFailure(since: charges[charges.count - 2].purchaseDate, world)
                else { continue }
                let whose = latest.isFamilyShared ? "the family's share of " : ""
                found.append(
                    InvariantViolation(
                        .payingKeepsAccess,
                        "Apple renewed \(whose)\(productId) (\(id)) at \(latest.purchaseDate), while the app ran, "
                            + "for \(owner), who owns it, but \(world.deviceName) shows "
                            + "\(WorldReading.list(context.phoneLevels)), not \(WorldReading.list(levels))"))
            }
            return found
        }
    }
}
