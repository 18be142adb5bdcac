import Database
import SimKernel
import StoreSim

/// Invariant 14 on the member's phone: once the world settles, a family member's running app shows no level of a
/// family share Apple took back while it ran that the backend no longer grants the identities it shows. Seed 000:
/// "When a reader loses a level, the full versions kept for it are deleted", ads only for non-subscribers; seed 003: a
/// revoked Family Sharing purchase turns the entitlement off. Every way a share ends by revocation is one here, because
/// Apple tells the member's device of each alike (`FamilyShareReceipts.shareChanged`: the receipt issued again, then
/// StoreKit 1's `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)`): the purchaser turning sharing off,
/// either of them leaving the family, a refund or revocation of the purchaser's purchase, the purchaser's plan moving to
/// one that is not shareable, and the Transaction Manager's Revoke of the share. The app then asks `POST /v1/me/sync`,
/// where the server reads Apple's records first, so by the time the world settles the share's levels are gone
/// (`FamilyCheck` holds the server to the revocation; invariant 2 and 7 hold the kept articles and the ads to the
/// levels shown). Until session 38 the running app was never told, and nothing noticed: `ShownLevelsCheck` excuses a
/// server change the app did not ask about, `FamilyCheck` reads only the server.
///
/// Not judged, because Apple tells the running app nothing of them:
/// - a share that ends with the purchaser's period (an expiry, Xcode's Expire Subscription, a billing failure past its
///   grace, a raised price not agreed to): no revocation; the levels' end the answer gave takes them (`LevelsEndCheck`);
/// - a revocation while the member's app was not running, or before the phone on screen came up (the window below
///   sees an app quit, a restart, another phone): its launch reads the receipt and asks (`ShownLevelsCheck` (b));
/// - a phone of another Apple ID showing the share's levels through an account the member's phone moved it to: Apple
///   tells only the member's devices, and that phone learns it as it next asks;
/// - a refund of the member's own purchase: StoreKit 1 tells the observer nothing of a refund.
/// - a level the phone heard the server grant after the revocation, that the server took away later through another
///   purchase of the identities shown (`takenSinceHeard`).
/// A fault since the revocation excuses it (a lost commit takes the news back; a sync the server failed asks nothing).
struct RevokedShareCheck {
    /// The steps since the world last settled, as the first of them began: a revocation in any of them reached the
    /// app only if the same app ran on the same phone throughout (running as the window opened, and no quit since,
    /// which a restart and a phone switch are too). `records`: the store's records version then; unchanged, Apple
    /// revoked nothing since, and nothing is read (most steps write nothing to the store).
    private var window: (began: SimInstant, device: String, running: Bool, quit: SimInstant?, records: UInt32?)?

    /// Call before a step: opens the window unless one is open (a step `without waiting` leaves it open).
    mutating func willRun(_ world: World, began: SimInstant) {
        guard window == nil else { return }
        window = (began, world.deviceName, world.isAppRunning, world.lastAppQuit, world.store.recordsVersion)
    }

    mutating func check(_ context: StepContext) -> [InvariantViolation] {
        guard context.settled else { return [] }
        defer { window = nil }
        let world = context.world
        guard let window, window.running, world.isAppRunning, world.deviceName == window.device,
            world.lastAppQuit == window.quit, window.records == nil || world.store.recordsVersion != window.records
        else { return [] }
        var latest: [String: TransactionRecord] = [:]
        for record in world.store.familySharedTransactions(appleId: world.appleId) {
            latest[record.originalTransactionIdentifier] = record
        }
        let revoked = latest.values.filter { record in
            record.revocationDate.map { $0 >= window.began && !context.faultSince($0) } ?? false
        }
        guard !revoked.isEmpty else { return [] }
        return InvariantViolation.checking(.familySharedFollowsSharing) {
            let ids = try ShownLevelsCheck.shownIdentities(world)
            var granted: Set<String> = []
            for id in ids { granted.formUnion(try world.backend.levels(of: id)) }
            var found: [InvariantViolation] = []
            for record in revoked.sorted(by: { $0.originalTransactionIdentifier < $1.originalTransactionIdentifier }) {
                let stale = (context.levels(of: record.productIdentifier) ?? []).intersection(context.phoneLevels)
                    .subtracting(granted).subtracting(try Self.takenSinceHeard(ids, record, world))
                guard !stale.isEmpty, let at = record.revocationDate else { continue }
                found.append(
                    InvariantViolation(
                        .familySharedFollowsSharing,
                        "Apple took back \(world.appleId)'s FAMILY_SHARED \(record.productIdentifier) "
                            + "(\(record.originalTransactionIdentifier)) at \(at) while the app on \(world.deviceName) "
                            + "ran, but it still shows \(WorldReading.list(stale)), which the backend no longer grants "
                            + "\(ids.isEmpty ? "it" : ids.joined(separator: " and "))"))
            }
            return found
        }
    }

    /// The levels the phone last heard the server grant an identity it shows, heard after Apple took the share back,
    /// where the server changed another purchase of that identity since: they were not the share's, and nothing tells
    /// a running app of the change, which it learns as it next asks. The purchaser signed in on the member's phone:
    /// the refund that revoked the share reached the server after the member's sync was answered (long fuzz 2108).
    private static func takenSinceHeard(_ ids: [String], _ share: TransactionRecord, _ world: World)
        throws(DatabaseError)
        -> Set<String>
    {
        guard let revoked = share.revocationDate else { return [] }
        let ledger = world.backend.ledger
        var taken: Set<String> = []
        for id in ids {
            guard let said = world.words.saidAt(on: world.deviceName, identityId: id), said >= revoked.milliseconds
            else { continue }
            let changed = try ledger.purchasesChanged(since: SimInstant(milliseconds: said + 1))
            guard
                try ledger.purchases(ownedBy: id).contains(where: {
                    $0.originalTransactionId != share.originalTransactionIdentifier
                        && changed.contains($0.originalTransactionId)
                })
            else { continue }
            taken.formUnion(world.words.levels(on: world.deviceName, identityId: id))
        }
        return taken
    }
}
