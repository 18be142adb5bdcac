import BackendSim
import SimKernel
import StoreSim

/// Invariant 14, family-shared access follows the purchaser's sharing, once the world settled. Anyone in the family may
/// be the purchaser, the organiser or a member (a member's own purchase was never shared, session 27): while their
/// family-shareable purchase stands (a subscription that gives access, its grace period too; a purchase not revoked)
/// and they share, everyone else in the family has been given a FAMILY_SHARED share of it. Apple holds a share live only
/// while both are in the family, the purchaser shares and their purchase stands; after Apple's REVOKE the backend
/// grants nothing from it (a fault since the revocation, such as a lost notification, excuses it until the daily
/// reconciliation). And the other way: while the purchaser's shared subscription gives access, the backend grants the
/// share.
struct FamilyCheck {
    /// `unshared`'s answer with the store's records version and the family it was found for: it reads only the
    /// store, and most steps write nothing there (session 28: it was a hundredth of a fuzz step).
    private var kept: (version: UInt32, family: Set<String>, found: [InvariantViolation])?

    mutating func check(_ context: StepContext) -> [InvariantViolation] {
        guard context.settled else { return [] }
        let world = context.world
        let store = world.store
        let now = world.scheduler.now
        let organiser = world.purchaserAppleId
        let family = Set([organiser] + store.familyMembers(of: organiser))
        var found = keptUnshared(family, store)
        for holder in family.union(world.phoneAppleIds.values).sorted() {
            var latest: [String: TransactionRecord] = [:]
            for record in store.familySharedTransactions(appleId: holder) {
                latest[record.originalTransactionIdentifier] = record
            }
            for (id, record) in latest.sorted(by: { $0.key < $1.key }) {
                if let revoked = record.revocationDate {
                    found += Self.backendViolations(id, member: holder, revoked: revoked, context)
                    continue
                }
                let purchase = store.sharedPurchase(ofShare: id)
                let purchaser = purchase?.appleId ?? "nobody"
                let shared = family.contains(holder) && family.contains(purchaser) && store.isFamilySharing(purchaser)
                if shared, let purchase, Self.givesAccess(purchase, store),
                    let lost = Self.shareLost(id, member: holder, since: record, context)
                {
                    found.append(lost)
                } else if record.expiresDate.map({ $0 > now }) ?? true, !shared {
                    let why =
                        !family.contains(holder)
                        ? "is not in the family"
                        : !family.contains(purchaser)
                            ? "\(purchaser), who bought it, is not in the family" : "\(purchaser) stopped sharing"
                    found.append(
                        InvariantViolation(
                            .familySharedFollowsSharing,
                            "\(holder) holds \(record.productIdentifier) (\(id)) as FAMILY_SHARED, but \(why)"))
                }
            }
        }
        return found
    }

    private mutating func keptUnshared(_ family: Set<String>, _ store: AppStore) -> [InvariantViolation] {
        let version = store.recordsVersion
        if let kept, kept.version == version, kept.family == family { return kept.found }
        let found = Self.unshared(family, store)
        kept = version.map { ($0, family, found) }
        return found
    }

    /// Each purchase someone in the family shares that stands now, that another in the family never held a share of. A
    /// share that ended is not asked back here: Apple revokes one member's share on its own (`store revoke` on their
    /// phone), and the rest of this check holds an ended share to its end.
    private static func unshared(_ family: Set<String>, _ store: AppStore) -> [InvariantViolation] {
        var found: [InvariantViolation] = []
        for purchaser in family.sorted() where store.isFamilySharing(purchaser) {
            var originals: [String: TransactionRecord] = [:]
            for record in store.transactions(appleId: purchaser) {
                originals[record.originalTransactionIdentifier] = record
            }
            for (original, latest) in originals.sorted(by: { $0.key < $1.key })
            where store.catalog.spec(for: latest.productIdentifier)?.isFamilyShareable == true
                && givesAccess(latest, store)
            {
                let holders = Set(store.familyShares(ofPurchase: original).map(\.memberAppleId))
                for member in family.subtracting(holders).subtracting([purchaser]).sorted() {
                    found.append(
                        InvariantViolation(
                            .familySharedFollowsSharing,
                            "\(purchaser)'s \(latest.productIdentifier) (\(original)) is family-shareable and gives "
                                + "access, but \(member), in the family, was never given a share of it"))
                }
            }
        }
        return found
    }

    /// Whether the purchase whose latest transaction is `latest` gives access now: its subscription's (grace too), or,
    /// for a purchase that does not renew, not revoked.
    private static func givesAccess(_ latest: TransactionRecord, _ store: AppStore) -> Bool {
        guard latest.revocationDate == nil else { return false }
        guard let subscription = store.subscription(originalTransactionId: latest.originalTransactionIdentifier)
        else { return true }
        return subscription.state.isEntitled
    }

    /// The backend, which heard of the member's share, no longer grants it while the purchaser's subscription gives
    /// access (a fault since the share's last transaction excuses it: lost news).
    private static func shareLost(_ id: String, member: String, since record: TransactionRecord, _ context: StepContext)
        -> InvariantViolation?
    {
        let now = context.world.scheduler.now
        let purchase: PurchaseRecord?
        do {
            purchase = try context.world.backend.ledger.purchase(id)
        } catch {
            return InvariantViolation(.familySharedFollowsSharing, "the ledger cannot be read: \(error)")
        }
        guard let purchase, !purchase.isActive(at: now), !context.faultSince(record.purchaseDate) else { return nil }
        return InvariantViolation(
            .familySharedFollowsSharing,
            "the purchaser's \(record.productIdentifier) still gives access, but the backend no longer grants "
                + "\(member)'s FAMILY_SHARED \(id)")
    }

    /// The backend still grants the member's purchase Apple revoked.
    private static func backendViolations(
        _ id: String, member: String, revoked: SimInstant, _ context: StepContext
    ) -> [InvariantViolation] {
        let now = context.world.scheduler.now
        let active: Bool
        do {
            active = try context.world.backend.ledger.purchase(id)?.isActive(at: now) ?? false
        } catch {
            return [InvariantViolation(.familySharedFollowsSharing, "the ledger cannot be read: \(error)")]
        }
        guard active, !context.faultSince(revoked) else { return [] }
        return [
            InvariantViolation(
                .familySharedFollowsSharing,
                "Apple revoked \(member)'s FAMILY_SHARED \(id) at \(revoked), but the backend still grants it")
        ]
    }
}
