import BackendSim
import SimKernel
import StoreSim

/// Invariant 14, family-shared access follows the purchaser's sharing, once the world settled: Apple holds a
/// member's FAMILY_SHARED purchase live only while the member is in the family, the purchaser shares and
/// their purchase stands; and after Apple's REVOKE the backend grants nothing from it (a fault since the
/// revocation, such as a lost notification, excuses it until the daily reconciliation). And the other way: while the
/// purchaser's shared subscription gives access (its grace period too), the backend grants the member's share.
enum FamilyCheck {
    static func violations(_ context: StepContext) -> [InvariantViolation] {
        guard context.settled else { return [] }
        let world = context.world
        let store = world.store
        let now = world.scheduler.now
        let purchaser = world.purchaserAppleId
        let members = store.familyMembers(of: purchaser)
        let sharing = store.isFamilySharing(purchaser)
        var found: [InvariantViolation] = []
        // The groups whose shareable subscription gives the purchaser access now: the members' shares of them do too.
        let catalog = store.catalog
        let sharedGroups =
            sharing
            ? Set(
                store.subscriptions(appleId: purchaser).filter {
                    $0.state.isEntitled && catalog.spec(for: $0.productId)?.isFamilyShareable == true
                }.map(\.groupId)) : []
        for member in Set(members + world.phoneAppleIds.values).sorted() {
            var latest: [String: TransactionRecord] = [:]
            for record in store.familySharedTransactions(appleId: member) {
                latest[record.originalTransactionIdentifier] = record
            }
            for (id, record) in latest.sorted(by: { $0.key < $1.key }) {
                if let revoked = record.revocationDate {
                    found += backendViolations(id, member: member, revoked: revoked, context)
                } else if members.contains(member),
                    let group = catalog.spec(for: record.productIdentifier)?.subscriptionGroup,
                    sharedGroups.contains(group), let lost = shareLost(id, member: member, since: record, context)
                {
                    found.append(lost)
                } else if record.expiresDate.map({ $0 > now }) ?? true, !members.contains(member) || !sharing {
                    found.append(
                        InvariantViolation(
                            .familySharedFollowsSharing,
                            "\(member) holds \(record.productIdentifier) (\(id)) as FAMILY_SHARED, but "
                                + (sharing ? "is not in the family" : "the purchaser stopped sharing")))
                }
            }
        }
        return found
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
