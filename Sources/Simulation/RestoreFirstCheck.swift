import AppFlow
import BackendSim
import SimKernel
import StoreSim

/// Invariant 17, restore before purchase (seed 000: "if the reader is signed in and this Apple ID already
/// holds a subscription the account can take: move it to the account … and stop"; seed 001: "one of the
/// most important trust guarantees"): a payment for a subscription never reaches Apple's sheet from a
/// signed-in phone while its Apple ID already pays for that subscription group with a purchase the account
/// holds, nobody holds, or the ownership rules let the account take. A fault of the store or the backend
/// since the purchase began excuses it only while the check was not answered: the app hands over to the App Store
/// when its check cannot be made, but once the server said the Apple ID already pays, a fault after (the move's
/// answer lost) makes paying no more right (session 27: Apple's $4.99 sheet for what the account then held). A guest's
/// phone is held to the family's shares alone: Apple charges a member's Apple ID anew for a plan the family shares with
/// it (session 34), where it answers "already subscribed" of the Apple ID's own. The Apple ID pays when the purchase
/// began and still as the sheet comes: a period that ended while the app checked moves nowhere (session 37).
struct RestoreFirstCheck {
    /// When the purchase on the phone on screen began: the start of the step before which it had none.
    private var purchaseBegan: SimInstant?
    /// How many answers to its check before paying the phone on screen had received when that purchase began: those
    /// were an earlier purchase's, though the last may have landed in the very millisecond this one began (long fuzz
    /// seed 1275: "moved too often", then the plan tapped again and its check failing).
    private var answersBefore: (device: String, count: Int)?
    private var found: [InvariantViolation] = []

    mutating func willRun(world: World, began: SimInstant) {
        if !world.isAppRunning || world.appState.purchase == nil {
            purchaseBegan = began
            answersBefore = (world.deviceName, world.restoreInspected[world.deviceName]?.count ?? 0)
        }
    }

    /// The store took a payment for `productId` from `deviceId` at `at`, which held `receipt` then (judged once the
    /// step settled, when a restore meanwhile may have refreshed it); `lastFault`: when a fault last fired.
    mutating func paymentAdded(
        _ productId: String, deviceId: String, receipt: String?, at: SimInstant, world: World, lastFault: SimInstant?
    ) {
        // The check's answer the app received for this purchase, before the payment (one landing after the app gave
        // up on it was not heard): one more than the phone had when the purchase began.
        let before = answersBefore.flatMap { $0.device == world.deviceName ? $0.count : nil } ?? 0
        let checked = world.restoreInspected[world.deviceName].map { answers in
            purchaseBegan != nil && answers.count > before && answers.last <= at
        }
        let state = world.appState
        guard world.isAppRunning, deviceId == World.deviceId(world.deviceName, world.appleId),
            let offerId = state.purchase?.offerId,
            state.offers?.first(where: { $0.id == offerId })?.productId == productId,
            let began = purchaseBegan, checked == true || lastFault.map({ $0 < began }) ?? true
        else { return }
        guard case .account(let email) = state.access.identity else {
            found += sharedWithGuest(productId, at: began, in: world).map { share in
                InvariantViolation(
                    .restoreBeforePurchase,
                    "a guest on \(world.deviceName) was sent to Apple's sheet for \(productId) while the family already "
                        + "shared \(share.productIdentifier) of its group with \(world.appleId) (original transaction "
                        + "\(share.originalTransactionIdentifier)): paying would pay for what the family gives")
            }
            return
        }
        found += InvariantViolation.checking(.restoreBeforePurchase) {
            guard let account = try world.backend.ledger.identityId(email: email) else { return [] }
            // Paying when the purchase began and still as the sheet came: one whose period ended while the app checked
            // moves nowhere (the server moves nothing that ended), and the sheet is Apple's to answer.
            let running = try takeable(productId, by: account, at: began, receipt: receipt, in: world)
            return running.filter { paysStill($0.originalTransactionIdentifier, at: at, in: world) }.map { held in
                InvariantViolation(
                    .restoreBeforePurchase,
                    "\(email) was sent to Apple's sheet for \(productId) while \(world.appleId) already paid for "
                        + "\(held.productIdentifier) of its group (original transaction "
                        + "\(held.originalTransactionIdentifier)), which the account could take or which cannot move to it"
                )
            }
        }
    }

    /// "Purchases are off" told to a signed-in reader whose Apple ID already paid, when the purchase began, for the
    /// group with a purchase the account may take: nothing needed paying, and seed 001 puts the question "before
    /// starting another payment" (a fault since the purchase began excuses it, as for a payment).
    mutating func paymentsRefused(_ outcome: ReaderOutcome, world: World, lastFault: SimInstant?) {
        // Signed in when the purchase began and still when told: a session that ended meanwhile has no account to
        // move anything to.
        guard outcome.told == .purchase(.refused(.paymentsNotAllowed)), !outcome.carriedOn,
            case .account(let email) = outcome.identityWhenBegan, outcome.identityWhenTold == outcome.identityWhenBegan,
            let productId = outcome.productId,
            lastFault.map({ $0 < outcome.began }) ?? true
        else { return }
        found += InvariantViolation.checking(.restoreBeforePurchase) {
            guard let account = try world.backend.ledger.identityId(email: email) else { return [] }
            // What the app could ask about: the receipt the phone held when told (a charge made elsewhere since is
            // not on it, nor one a receipt refreshed after the answer lists: sweep seeds 3461, long 668).
            let receipt = outcome.receiptWhenTold
            return try takeable(productId, by: account, at: outcome.began, receipt: receipt, in: world).map { held in
                InvariantViolation(
                    .restoreBeforePurchase,
                    "\(email) was told purchases are off for \(productId) while \(world.appleId) already paid for "
                        + "\(held.productIdentifier) of its group (original transaction "
                        + "\(held.originalTransactionIdentifier)), which the account could take with no payment")
            }
        }
    }

    /// The family shares of `productId`'s group that the phone's Apple ID held at `instant`: StoreKit tells the phone of
    /// them, and a fresh receipt lists them, so a guest is never sent to Apple's sheet for what the family already gives
    /// it (session 34), whoever holds the share in the ledger.
    private func sharedWithGuest(_ productId: String, at instant: SimInstant, in world: World) -> [TransactionRecord] {
        let catalog = world.store.catalog
        guard let group = catalog.spec(for: productId)?.subscriptionGroup else { return [] }
        return world.store.familySharedTransactions(appleId: world.appleId).filter { record in
            catalog.spec(for: record.productIdentifier)?.subscriptionGroup == group && !record.isUpgraded
                && record.purchaseDate < instant && (record.expiresDate.map { $0 > instant } ?? false)
                && (record.revocationDate.map { $0 > instant } ?? true)
        }
    }

    /// What was found since the last call.
    mutating func check() -> [InvariantViolation] {
        defer { found = [] }
        return found
    }

    /// The Apple ID's purchases in `productId`'s group paying at `instant` that `account` holds or may take.
    private func takeable(
        _ productId: String, by account: String, at instant: SimInstant, receipt: String?, in world: World
    ) throws -> [TransactionRecord] {
        let catalog = world.store.catalog
        guard let group = catalog.spec(for: productId)?.subscriptionGroup else { return [] }
        // What the app can ask the server about: its receipt's purchases, or with none on the phone, all the
        // Apple ID's (seed 000: a signed-in reader's purchase asks Apple for a fresh receipt when it is
        // missing). A purchase made on another phone since the receipt was issued is not in a stale one.
        var known: Set<String>?
        if let receipt {
            guard case .valid(_, let listed, _) = world.store.verifyReceipt(receipt, expecting: world.store.environment)
            else { return [] }
            known = Set(listed.map(\.originalTransactionIdentifier))
        }
        let paying = world.store.transactions(appleId: world.appleId).filter { record in
            (known?.contains(record.originalTransactionIdentifier) ?? true)
                && catalog.spec(for: record.productIdentifier)?.subscriptionGroup == group && !record.isUpgraded
                && record.purchaseDate < instant && (record.expiresDate.map { $0 > instant } ?? false)
                && (record.revocationDate.map { $0 > instant } ?? true)
        }
        var seen: Set<String> = []
        var held: [TransactionRecord] = []
        for record in paying where seen.insert(record.originalTransactionIdentifier).inserted {
            if try mayTake(record.originalTransactionIdentifier, account: account, at: instant, in: world) {
                held.append(record)
            }
        }
        return held
    }

    /// Whether a period of purchase `original` of the phone's Apple ID runs at `instant`, not revoked by then.
    private func paysStill(_ original: String, at instant: SimInstant, in world: World) -> Bool {
        world.store.transactions(appleId: world.appleId).contains { record in
            record.originalTransactionIdentifier == original && record.purchaseDate <= instant
                && (record.expiresDate.map { $0 > instant } ?? false)
                && (record.revocationDate.map { $0 > instant } ?? true)
        }
    }

    /// Whether the ownership rules give `account` the purchase (already its own, nobody's, or movable), or keep it
    /// from the account for good reasons a sheet cannot change (the move limit, the policy).
    private func mayTake(_ original: String, account: String, at instant: SimInstant, in world: World) throws -> Bool {
        let ledger = world.backend.ledger
        guard let owner = try ledger.purchase(original)?.ownerId else { return true }
        if owner == account { return true }
        let ownerKind = try ledger.identity(owner)?.kind
        let moves = try ledger.moves().filter {
            $0.originalTransactionId == original
                && $0.at.milliseconds > instant.milliseconds
                    - OwnershipRules.window.milliseconds
        }
        let decision = OwnershipRules.decide(
            OwnershipRules.Situation(
                ownerId: owner, ownerKind: ownerKind,
                ownerHasActivePurchase: try ledger.purchases(ownedBy: owner).contains { $0.isActive(at: instant) },
                callerId: account, callerKind: .account, receiptIsFromThisDevice: true, movesInWindow: moves.count,
                policy: world.config.backend.restorePolicy ?? .transfer, confirmedMoveFromAccount: true))
        switch decision {
        // Another account's purchase is asked about, never moved unasked: not this invariant's.
        case .move: return ownerKind == .anonymous
        // Kept from the account by the move limit or the policy: Apple's sheet could only answer "already
        // subscribed", and "Move it?" be refused after it (session 27).
        case .refuse(.limit), .refuse(.keptWithOwner), .refuse(.ownerActive): return true
        default: return false
        }
    }
}
