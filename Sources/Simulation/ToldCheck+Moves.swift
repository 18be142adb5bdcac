import BackendSim
import SimKernel
import StoreSim
import Subscriptions

/// Invariant 9 for a move told as not made: a restore or a transfer said to have failed while the backend's ledger
/// holds the Apple ID's purchase where the act was to take it (session 27). A fault that lost only the answer does
/// not make the failure true: the server may be asked where the subscription is (found-by-hand/55).
extension ToldCheck {
    /// "Could not be restored" of a restore the server made: while it ran, the ledger moved a purchase of the Apple ID
    /// to the reader, who still holds it, active, and the phone shows levels. Judged even after a fault.
    static func restoredWhileToldFailed(_ outcome: ReaderOutcome, _ context: StepContext) throws
        -> InvariantViolation?
    {
        let world = context.world
        guard case .restore(.failed) = outcome.told, outcome.identityWhenBegan == outcome.identityWhenTold,
            !context.phoneLevels.union(outcome.levelsWhenTold).isEmpty,
            let reader = try readerId(outcome.identityWhenTold, world)
        else { return nil }
        let bought = Set(world.store.transactions(appleId: world.appleId).map(\.originalTransactionIdentifier))
        let moved = try heldMove(to: reader, at: outcome.at, world) {
            $0.via == .restore && bought.contains($0.originalTransactionId) && $0.at >= outcome.began
        }
        return moved.map {
            InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName) was told \(describe(outcome.told)), but the restore moved "
                    + "\($0.originalTransactionId) to the reader (\(reader)), who holds it")
        }
    }

    /// "Could not be restored" while the reader holds what the Apple ID bought: an active purchase of it that the ledger
    /// gives who the phone shows (when told or now) or the phone's own guest, whose levels a signed-in reader holds too,
    /// the phone showing levels. A guest's restore overtaken by a sign-in whose transfer gave the account the
    /// subscription was told failed beside it (fuzz seed 4151, h1 session 30). Judged only with no fault since it began.
    static func heldWhileToldFailed(_ outcome: ReaderOutcome, _ context: StepContext) throws -> InvariantViolation? {
        let world = context.world
        guard case .restore(.failed) = outcome.told, !outcome.levelsWhenTold.isEmpty, !context.phoneLevels.isEmpty
        else { return nil }
        let readers = try readersTold(outcome, world, andShownNow: true)
        let now = world.scheduler.now
        let bought = Set(world.store.transactions(appleId: world.appleId).map(\.originalTransactionIdentifier))
        for original in bought.sorted() {
            guard let purchase = try world.backend.ledger.purchase(original), let owner = purchase.ownerId,
                readers.contains(owner), purchase.isActive(at: now)
            else { continue }
            return InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName) was told \(describe(outcome.told)), but the reader (\(owner)) holds "
                    + "\(world.appleId)'s \(purchase.productId) (\(original))")
        }
        return nil
    }

    /// A move to the account told as failed ("Sorry — there was no subscription on this phone to move") while the
    /// phone's guest holds nothing active and a transfer from it put on the account a purchase the account still holds,
    /// active: the move was made (a kill lost its answer, and the one sent again found nothing left to move).
    static func transferredWhileToldFailed(_ outcome: ReaderOutcome, _ world: World) throws -> InvariantViolation? {
        guard case .account(.failed) = outcome.told, let guest = outcome.transferFrom,
            outcome.identityWhenBegan == outcome.identityWhenTold,
            case .account = outcome.identityWhenTold,
            let account = try readerId(outcome.identityWhenTold, world)
        else { return nil }
        guard try !world.backend.ledger.purchases(ownedBy: guest).contains(where: { $0.isActive(at: outcome.at) })
        else { return nil }
        let moved = try heldMove(to: account, at: outcome.at, world) { $0.via == .transfer && $0.from == guest }
        return moved.map {
            InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName) was told \(describe(outcome.told)), but a transfer moved "
                    + "\($0.originalTransactionId) from the phone's guest to the account, which holds it")
        }
    }

    /// Whether the levels a phone gained while an act ran that failed are all the server's through purchases the reader
    /// (the identity told, or the phone's own guest) held before the act began: old news the phone heard meanwhile (a
    /// session refreshed while the purchase asked the server showed a parent's approval of days before), not the act's.
    /// An act gives access only by a charge, a receipt the server accepted, or a purchase moved to or claimed by the
    /// reader, each since the act began: the check still judges those.
    static func heldBeforeTheAct(_ gained: Set<String>, _ outcome: ReaderOutcome, _ context: StepContext) throws
        -> Bool
    {
        let world = context.world
        let readers = try readersTold(outcome, world)
        let ledger = world.backend.ledger
        let now = world.scheduler.now
        var held: Set<String> = []
        for reader in readers {
            for purchase in try ledger.purchases(ownedBy: reader) where purchase.isActive(at: now) {
                guard let since = try ledger.ownedSince(purchase.originalTransactionId), since <= outcome.began else {
                    continue
                }
                // Taken at the very instant of the tap: before it only if the ledger wrote it by then (long seed 1838).
                if since == outcome.began {
                    guard let mark = outcome.ledgerMarkWhenBegan,
                        try ledger.ownedBy(mark: mark, purchase.originalTransactionId)
                    else { continue }
                }
                held.formUnion(context.levels(of: purchase.productId) ?? [])
            }
        }
        return gained.isSubset(of: held)
    }

    /// Whether the levels a phone gained while a purchase ran that Apple failed are all the server's through purchases the
    /// reader (the identity told, or the phone's own guest) holds when told, paid for before the tap: what "You already
    /// have a subscription, found meanwhile" says, wherever the phone heard of it while the purchase ran. A session
    /// refreshed during the check before paying brought one held before the tap (long fuzz seed 1422); the reader's own
    /// Restore tapped while the check was on its way moved a parent's approval of moments before to the account, and was
    /// told "Restored" (default fuzz seed 5317): found meanwhile, not made by the act. Judged after `heldBeforeTheAct`.
    static func foundWhileItRan(_ gained: Set<String>, _ outcome: ReaderOutcome, _ context: StepContext) throws
        -> Bool
    {
        let world = context.world
        // Paid before the tap: a transaction of the Apple ID's, its own or shared by the family, dated before it.
        let paid = Set(
            (world.store.transactions(appleId: world.appleId)
                + world.store.familySharedTransactions(appleId: world.appleId))
                .filter { $0.purchaseDate < outcome.began }.map(\.originalTransactionIdentifier))
        let readers = try readersTold(outcome, world)
        let ledger = world.backend.ledger
        let now = world.scheduler.now
        var found: Set<String> = []
        for reader in readers {
            for purchase in try ledger.purchases(ownedBy: reader)
            where purchase.isActive(at: now) && paid.contains(purchase.originalTransactionId) {
                guard let since = try ledger.ownedSince(purchase.originalTransactionId), since <= outcome.at else {
                    continue
                }
                found.formUnion(context.levels(of: purchase.productId) ?? [])
            }
        }
        return gained.isSubset(of: found)
    }

    /// The latest move to `owner` by `instant` that `matches`, of a purchase `owner` still holds, active then.
    private static func heldMove(
        to owner: String, at instant: SimInstant, _ world: World, matching matches: (OwnershipMove) -> Bool
    ) throws -> OwnershipMove? {
        let ledger = world.backend.ledger
        for move in try ledger.moves().reversed() where move.to == owner && move.at <= instant && matches(move) {
            guard let purchase = try ledger.purchase(move.originalTransactionId), purchase.ownerId == owner,
                purchase.isActive(at: instant)
            else { continue }
            return move
        }
        return nil
    }

    /// "…went to the account you were logged in with. Log in again to use them." (a restore or a purchase answered after
    /// a logout) is true only where that account held, when told, an active purchase of the Apple ID, or gave one away
    /// since: it was said of a restore that found nothing while the phone's guest was given the subscription (fuzz
    /// seed 4896). "That account" is the one shown when the act began, or one signed out of while it ran: a charge
    /// carried on (a code redeemed on the App Store) was sent by the account signed in when the app heard of it, and
    /// judged by the account signed in later (fuzz seed 5107).
    static func wentToAccountViolation(_ outcome: ReaderOutcome, _ world: World) throws -> InvariantViolation? {
        let message: String
        switch outcome.told {
        case .restore(.failed(let text)), .purchase(.failed(let text)): message = text
        default: return nil
        }
        guard message.contains("went to the account you were logged in with") else { return nil }
        if let whose = whoseAccountViolation(outcome, message: message, world) { return whose }
        let signedOut = outcome.identitiesWhileRan.filter {
            if case .account = $0 { $0 != outcome.identityWhenTold } else { false }
        }
        var accounts: [String] = []
        for identity in [outcome.identityWhenBegan] + signedOut {
            if let id = try readerId(identity, world), !accounts.contains(id) { accounts.append(id) }
        }
        guard let first = accounts.first else { return nil }
        let ledger = world.backend.ledger
        // The family's shares too: a restore brings them to the account as it brings the Apple ID's own (fuzz seed 5120).
        let receipt =
            world.store.transactions(appleId: world.appleId)
            + world.store.familySharedTransactions(appleId: world.appleId)
        let bought = Set(receipt.map(\.originalTransactionIdentifier))
        for account in accounts {
            let held = try ledger.purchases(ownedBy: account).contains {
                bought.contains($0.originalTransactionId) && $0.isActive(at: outcome.at)
            }
            let gaveAway = try ledger.moves().contains {
                $0.from == account && $0.at >= outcome.at && bought.contains($0.originalTransactionId)
            }
            if held || gaveAway { return nil }
        }
        return InvariantViolation(
            .toldIsTrue,
            "\(world.deviceName) was told \(describe(outcome.told)), but the account (\(first)) holds nothing "
                + "\(world.appleId) bought")
    }

    /// Who the words were said to in the ledger: the identity told (and, `andShownNow`, the one shown now: the reader
    /// may have logged out since), and the phone's own guest.
    static func readersTold(_ outcome: ReaderOutcome, _ world: World, andShownNow: Bool = false) throws -> [String] {
        let identities = [outcome.identityWhenTold] + (andShownNow ? [world.appState.access.identity] : [])
        var readers = try identities.compactMap { identity in try readerId(identity, world) }
        if let guest = world.device.storage.anonymousIdentity?.id { readers.append(guest) }
        return readers
    }

    /// The ledger's identity of who the phone showed; nil for nobody, or an account the ledger does not know.
    static func readerId(_ identity: AccessSnapshot.Identity, _ world: World) throws -> String? {
        switch identity {
        case .account(let email): try world.backend.ledger.identityId(email: email)
        case .anonymous(let id): id
        case .none: nil
        }
    }
}
