import AppFlow
import BackendSim
import StoreSim
import Subscriptions

/// Invariant 9 of who paid, as the profile says it: "Subscribed on this phone" where every purchase that gives the
/// phone access is a family member's, shared with an Apple ID (Apple's FAMILY_SHARED), or a plan said "Shared by your
/// family" that is no share. A member who restored the purchaser's plan read that they had subscribed (session 31, h10).
extension ToldCheck {
    static func whoPaidViolation(_ world: World) -> InvariantViolation? {
        let running = world.appState.profileSubscriptions.filter(\.active)
        guard !running.isEmpty else { return nil }
        let shares = Set(
            world.appleIds.flatMap { world.store.familySharedTransactions(appleId: $0) }
                .map(\.originalTransactionIdentifier))
        let isShare = { (shown: SubscriptionSummary) in shown.originalTransactionId.map(shares.contains) ?? false }
        let texts = world.screen.rows.map(\.text)
        if texts.contains(where: { $0.hasPrefix("Subscribed on this phone") }), running.allSatisfy(isShare) {
            return InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName)'s profile says \"Subscribed on this phone\", but "
                    + running.map { "\($0.productId) (\($0.originalTransactionId ?? "?"))" }.joined(separator: ", ")
                    + " is a family member's purchase shared with it: nobody on the phone subscribed")
        }
        if let paid = running.first(where: { $0.familyShared == true && !isShare($0) }),
            texts.contains(where: { $0.hasPrefix("Shared by your family: the family member") })
        {
            return InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName)'s profile says \(paid.productId) (\(paid.originalTransactionId ?? "?")) is shared "
                    + "by the family, but it is no family share: its Apple ID paid for it")
        }
        return nil
    }
}

/// Invariant 9 of who pays, as a restore (or a purchase that restored instead of charging, a partial restore, a move to
/// the account) says it: "Your subscription is back" (or "This Apple ID already had a subscription", "Your subscription
/// is now on your account") where every purchase giving the reader access (or, for a move, moved) is a family
/// member's, shared with an Apple ID, or "your family shares" where none is, or "your subscription is back, with one
/// your family shares" where not both are. The family organiser restoring a member's plan was told it was theirs while
/// the profile said "Shared by your family" (session 33).
extension ToldCheck {
    static func whoPaysToldViolation(_ outcome: ReaderOutcome, _ world: World) throws -> InvariantViolation? {
        let (own, shared): (Bool?, Bool)
        switch outcome.told {
        case .restore(.restored), .purchase(.restoredInsteadOfCharging): (own, shared) = (true, false)
        case .restore(.sharedByFamily(let alsoOwn)): (own, shared) = (alsoOwn ? true : nil, true)
        case .purchase(.sharedInsteadOfCharging): (own, shared) = (nil, true)
        case .account(.transferred(let whose)), .restore(.partlyRestored(_, let whose)):
            (own, shared) = (whose == .family ? nil : true, whose != .own)
        default: return nil
        }
        let ledger = world.backend.ledger
        let holder: String? =
            switch outcome.identityWhenTold {
            case .none: nil
            case .anonymous(let id): id
            case .account(let email): try ledger.identityId(email: email)
            }
        guard let holder else { return nil }
        let shares = Set(
            world.appleIds.flatMap { world.store.familySharedTransactions(appleId: $0) }
                .map(\.originalTransactionIdentifier))
        // Signed in, a restore's words speak of what the phone's own guest holds too (not moved yet, it is the reader's).
        let guest: [String] =
            if case .restore = outcome.told, let id = world.device.storage.anonymousIdentity?.id, id != holder {
                [id]
            } else {
                []
            }
        var giving = try ([holder] + guest).flatMap { try ledger.purchases(ownedBy: $0) }.filter {
            $0.isActive(at: outcome.at) && !(world.config.backend.productLevels[$0.productId] ?? []).isEmpty
        }
        // A move to the account is said of what moved: the account's own beside a family share moved to it is not what
        // "your subscription is now on your account" speaks of (session 34).
        // What moved is judged even if Apple took it back since the server answered: family sharing turned off while
        // the move's answer travelled was still the family's share when told (fuzz seed 4920).
        // So is a share that ended in that time (Xcode's Expire Subscription of the purchaser's: default fuzz 5418).
        if case .account(.transferred) = outcome.told {
            let moved = Dictionary(
                try ledger.moves().filter {
                    $0.via == .transfer && $0.to == holder && $0.at >= outcome.began && $0.at <= outcome.at
                }
                .map { ($0.originalTransactionId, $0.at) }, uniquingKeysWith: max)
            let movedHeld = try ledger.purchases(ownedBy: holder).filter { purchase in
                guard let movedAt = moved[purchase.originalTransactionId] else { return false }
                return purchase.isActive(at: outcome.at)
                    || (shares.contains(purchase.originalTransactionId)
                        && (purchase.revoked || purchase.isActive(at: movedAt)))
            }
            if !movedHeld.isEmpty { giving = movedHeld }
        }
        guard !giving.isEmpty else { return nil }
        let (holdsOwn, holdsShare) = (
            giving.contains { !shares.contains($0.originalTransactionId) },
            giving.contains { shares.contains($0.originalTransactionId) }
        )
        let names = { (records: [PurchaseRecord]) in
            records.map { "\($0.productId) (\($0.originalTransactionId))" }.joined(separator: ", ")
        }
        if own == true, !holdsOwn {
            return InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName) was told \(describe(outcome.told)), but what gives the reader access, "
                    + "\(names(giving)), is a family member's purchase shared with the Apple ID: nobody here paid for it"
            )
        }
        if shared, !holdsShare {
            return InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName) was told \(describe(outcome.told)), but what gives the reader access, "
                    + "\(names(giving)), is no family share: the Apple ID paid for it")
        }
        return nil
    }
}
