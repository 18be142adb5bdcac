import Database
import SimKernel

/// Apple's `inAppOwnershipType` values.
public enum FamilySharing {
    public static let purchased = "PURCHASED"
    public static let familyShared = "FAMILY_SHARED"
    /// The store device of a member's shared transaction: no phone paid for it.
    static let deviceId = "family-sharing"
}

/// Family Sharing: whoever in a family buys a family-shareable product (the organiser or a member), everyone
/// else in the family gets their own FAMILY_SHARED transaction of it (its own original transaction id, so
/// nothing their phone does can touch the purchaser's), renewed with the purchaser's and revoked (REVOKE) when
/// the purchaser stops sharing, either of them leaves, or the purchase is refunded. The purchase never changes.
extension AppStore {
    /// `member` joins `purchaser`'s family: they get what each of the family shares now, and share their own.
    public func addFamilyMember(_ member: String, purchaser: String) throws(DatabaseError) {
        try ledger.addFamilyMember(member, purchaser: purchaser)
        log("\(member) joins the family of \(purchaser)")
        for appleId in [purchaser] + (try ledger.familyMembers(of: purchaser)) { try shareAll(of: appleId) }
    }

    /// `member` leaves the family: Apple revokes each of their shares, and the family's shares of their purchases.
    public func removeFamilyMember(_ member: String) throws(DatabaseError) {
        guard let purchaser = try ledger.familyPurchaser(of: member) else { return }
        let family = [purchaser] + (try ledger.familyMembers(of: purchaser))
        try ledger.removeFamilyMember(member)
        log("\(member) leaves the family of \(purchaser)")
        for appleId in family { try shareAll(of: appleId) }
    }

    /// The purchaser turns sharing of their subscriptions with the family on or off.
    public func setFamilySharing(_ on: Bool, purchaser: String) throws(DatabaseError) {
        try ledger.setFamilySharing(on, purchaser: purchaser)
        log("family sharing \(on ? "on" : "off") for \(purchaser)")
        try shareAll(of: purchaser)
    }

    public func familyMembers(of purchaser: String) -> [String] {
        logged("read the family of \(purchaser)") { try ledger.familyMembers(of: purchaser) } ?? []
    }

    /// Whether `purchaser` shares with the family; false when the records cannot be read (fails closed).
    public func isFamilySharing(_ purchaser: String) -> Bool {
        logged("read family sharing of \(purchaser)") { try ledger.isFamilySharing(purchaser) } ?? false
    }

    /// What the family shares with `appleId`: their FAMILY_SHARED transactions, renewals and revocations included.
    public func familySharedTransactions(appleId: String) -> [TransactionRecord] {
        logged("read the family shares of \(appleId)") {
            try ledger.transactions(appleId: appleId).filter(\.isFamilyShared)
        } ?? []
    }

    /// The share a FAMILY_SHARED original transaction id stands for.
    public func familyShare(originalTransactionId: String) -> FamilyShare? {
        logged("read family share \(originalTransactionId)") { try ledger.familyShare(originalTransactionId) } ?? nil
    }

    /// Every share of the purchase `original` (the purchaser's original transaction id), running or ended, oldest first.
    public func familyShares(ofPurchase original: String) -> [FamilyShare] {
        logged("read the family shares of \(original)") { try ledger.familyShares(of: original) } ?? []
    }

    /// The purchaser's latest transaction of the purchase a FAMILY_SHARED original transaction id shares: who
    /// bought it, and what they hold now.
    public func sharedPurchase(ofShare original: String) -> TransactionRecord? {
        logged("read the purchase family share \(original) shares") { () throws(DatabaseError) -> TransactionRecord? in
            guard let share = try ledger.familyShare(original) else { return nil }
            return try ledger.transactions(originalTransactionId: share.purchaserOriginalTransactionId).last
        } ?? nil
    }

    private func shareAll(of purchaser: String) throws(DatabaseError) {
        var originals: [String] = []
        for record in try ledger.transactions(appleId: purchaser)
        where !record.isFamilyShared && !originals.contains(record.originalTransactionIdentifier) {
            originals.append(record.originalTransactionIdentifier)
        }
        for original in originals { try shareWithFamily(original, purchaser: purchaser) }
    }

    /// Brings each share of the purchaser's purchase `original` in line with it: a new share for each of the rest of
    /// the purchaser's family (`familyRecipients`) who has none while it is shareable, shared and entitled; a renewal
    /// when the purchaser's period moved on; REVOKE when sharing stopped, either left, or the purchase was refunded. An
    /// expiry or a billing problem ends the member's access with the period's end, as the purchaser's.
    /// `told`: the purchaser's notification that asked, when one did: a failed renewal and the end of its grace are
    /// the members' news too (their shares keep access through the purchaser's grace, and lose it with it).
    func shareWithFamily(
        _ original: String, purchaser: String, told: (NotificationType, NotificationSubtype?)? = nil
    ) throws(DatabaseError) {
        // Asked on every notification: without a family ever written for the purchaser, nothing is read.
        guard try ledger.mayHaveFamily(purchaser) else { return }
        let members = try ledger.familyRecipients(of: purchaser)
        let running = try ledger.familyShares(of: original).filter { $0.ended == nil }
        guard !members.isEmpty || !running.isEmpty else { return }
        let subscription = try ledger.subscription(original)
        var latest: TransactionRecord?
        if let subscription {
            latest = try ledger.transaction(subscription.latestTransactionId)
        } else {
            latest = try ledger.transactions(originalTransactionId: original).last
        }
        guard let latest, !latest.isFamilyShared else { return }
        let sharing =
            try ledger.isFamilySharing(latest.appleId)
            && catalog.spec(for: latest.productIdentifier)?.isFamilyShareable == true
        let entitled = latest.revocationDate == nil && (subscription?.state.isEntitled ?? true)
        for member in members where sharing && entitled && !running.contains(where: { $0.memberAppleId == member }) {
            try startShare(of: latest, with: member, subscription)
        }
        for share in running {
            if !sharing || !members.contains(share.memberAppleId) || latest.revocationDate != nil {
                try revoke(share, subscription)
            } else if entitled {
                try renew(share, to: latest, subscription, told: told?.0)
                if let (type, subtype) = told, type == .didFailToRenew || type == .gracePeriodExpired {
                    try tellShare(share, type, subtype, subscription)
                }
                try tellRenewalChange(of: share, subscription, told: told?.0)
            } else if let (type, subtype) = told, type == .gracePeriodExpired || type == .didFailToRenew {
                try tellShare(share, type, subtype, subscription)
            }
        }
    }

    /// Xcode's Expire Subscription ended the purchaser's period now: each running share's period ends with it, and the
    /// member's server is told EXPIRED as the purchaser's is; left as it was, a share's transaction gave access until
    /// the purchaser's old period end (session 28).
    func expireShares(of original: String, purchaser: String) throws(DatabaseError) {
        guard try ledger.mayHaveFamily(purchaser) else { return }
        let subscription = try ledger.subscription(original)
        for share in try ledger.familyShares(of: original) where share.ended == nil {
            guard let latest = try ledger.transactions(originalTransactionId: share.originalTransactionId).last,
                let expires = latest.expiresDate, expires > scheduler.now
            else { continue }
            try ledger.cutExpiry(latest.transactionIdentifier, to: scheduler.now)
            try tellShare(share, .expired, .voluntary, subscription)
        }
    }

    /// Whether the purchaser's renewal renews the member's share too: auto-renew on, a plan the family may share, and
    /// no raised price waiting for the purchaser's consent that ends it (an offer's period renews without it). A
    /// member's profile said "renews on" of a share that ended that day (session 30, h11).
    func renewsForFamily(_ subscription: SubscriptionRecord) -> Bool {
        subscription.autoRenew
            && catalog.spec(for: subscription.autoRenewProductId)?.isFamilyShareable == true
            && !(subscription.priceIncreaseStatus == 0 && nextOfferType(subscription) == nil)
    }

    /// The purchaser's renewal changed what comes of the member's share (auto-renew, the plan chosen, a raised price
    /// asked or agreed to): the member's server is told, as Apple tells the purchaser's. Without what was told this
    /// run (a reopened store), only the purchaser's own renewal news is passed on.
    private func tellRenewalChange(
        of share: FamilyShare, _ subscription: SubscriptionRecord?, told: NotificationType?
    ) throws(DatabaseError) {
        guard let subscription,
            let latest = try ledger.transactions(originalTransactionId: share.originalTransactionId).last,
            let member = shared(subscription, as: latest)
        else { return }
        let now = RenewalTold(member)
        if let before = renewalsTold[share.originalTransactionId] {
            guard before != now else { return }
        } else {
            guard let told, [.didChangeRenewalStatus, .didChangeRenewalPref, .priceIncrease].contains(told) else {
                return
            }
        }
        let changedStatus = renewalsTold[share.originalTransactionId].map { $0.autoRenew != now.autoRenew } ?? true
        let type: NotificationType = changedStatus ? .didChangeRenewalStatus : .didChangeRenewalPref
        let subtype: NotificationSubtype? =
            changedStatus ? (member.autoRenew ? .autoRenewEnabled : .autoRenewDisabled) : nil
        log("family share \(share.originalTransactionId): \(type.rawValue) as the purchaser's renewal changed")
        notify(type, subtype, latest, member)
    }

    /// The purchaser's billing news, told of the member's share: their access follows the purchaser's grace (a member
    /// lost access at once while the purchaser kept it through grace, session 24).
    private func tellShare(
        _ share: FamilyShare, _ type: NotificationType, _ subtype: NotificationSubtype?,
        _ subscription: SubscriptionRecord?
    ) throws(DatabaseError) {
        guard let latest = try ledger.transactions(originalTransactionId: share.originalTransactionId).last else {
            return
        }
        log("family share \(share.originalTransactionId): \(type.rawValue) as the purchaser's")
        notify(type, subtype, latest, shared(subscription, as: latest))
    }

    private func startShare(
        of purchase: TransactionRecord, with member: String, _ subscription: SubscriptionRecord?
    ) throws(DatabaseError) {
        let record = try recordShared(purchase, for: member, original: nil, reason: "PURCHASE")
        try ledger.insert(
            FamilyShare(
                originalTransactionId: record.transactionIdentifier, memberAppleId: member,
                purchaserOriginalTransactionId: purchase.originalTransactionIdentifier, ended: nil))
        log("\(purchase.productIdentifier) shared with \(member): transaction \(record.transactionIdentifier)")
        let type: NotificationType = subscription == nil ? .oneTimeCharge : .subscribed
        notify(type, subscription == nil ? nil : .initialBuy, record, shared(subscription, as: record))
        shareChanged(for: member)
    }

    /// The purchaser's period moved on (a renewal, an upgrade, a recovery, a purchase again): the member's moves with it.
    /// A share whose period had ended, renewed because the purchaser bought again (`SUBSCRIBED`: an interrupted
    /// purchase resolved, a code redeemed), reaches the member's running app as a recovery does (`deliverRecovery`):
    /// it left the member's phone no levels' end to wait for, and the member stayed locked out while the family paid
    /// (fuzz seed 5110, session 38).
    private func renew(
        _ share: FamilyShare, to purchase: TransactionRecord, _ subscription: SubscriptionRecord?,
        told: NotificationType?
    ) throws(DatabaseError) {
        guard let current = try ledger.transactions(originalTransactionId: share.originalTransactionId).last,
            current.expiresDate != purchase.expiresDate || current.productIdentifier != purchase.productIdentifier
        else { return }
        let record = try recordShared(
            purchase, for: share.memberAppleId, original: share.originalTransactionId, reason: "RENEWAL")
        log("family share \(share.originalTransactionId) renewed: transaction \(record.transactionIdentifier)")
        notify(.didRenew, nil, record, shared(subscription, as: record))
        let lapsed = current.expiresDate.map { $0 <= scheduler.now } ?? false
        guard lapsed, told == .subscribed, deliversRecoveries else { return }
        // In the phones' order, not the dictionary's: only a running app observes, but the timeline stays the seed's.
        for (_, kept) in queues.sorted(by: { $0.key < $1.key }) where kept.queue?.appleId == share.memberAppleId {
            kept.queue?.deliverRenewal(record, because: "the family's purchaser bought again")
        }
    }

    private func revoke(_ share: FamilyShare, _ subscription: SubscriptionRecord?) throws(DatabaseError) {
        try ledger.endShare(share.originalTransactionId, at: scheduler.now)
        guard var latest = try ledger.transactions(originalTransactionId: share.originalTransactionId).last else {
            return
        }
        if latest.revocationDate == nil {
            try ledger.revoke(latest.transactionIdentifier, at: scheduler.now, reason: 0)
            latest.revocationDate = scheduler.now
            latest.revocationReason = 0
        }
        log("family sharing revoked for \(share.memberAppleId): transaction \(latest.transactionIdentifier)")
        var ended = shared(subscription, as: latest)
        ended?.state = .revoked
        ended?.autoRenew = false
        notify(.revoke, nil, latest, ended)
        shareChanged(for: share.memberAppleId, revoked: latest.productIdentifier)
    }

    /// A member's transaction of the purchaser's current period: theirs, with the purchaser's dates.
    private func recordShared(_ purchase: TransactionRecord, for member: String, original: String?, reason: String)
        throws(DatabaseError) -> TransactionRecord
    {
        let identifier = String(Self.firstTransactionIdentifier + (try ledger.nextTransactionNumber()))
        let record = TransactionRecord(
            transactionIdentifier: identifier, originalTransactionIdentifier: original ?? identifier,
            productIdentifier: purchase.productIdentifier, appleId: member, deviceId: FamilySharing.deviceId,
            purchaseDate: scheduler.now, expiresDate: purchase.expiresDate, finished: true, transactionReason: reason,
            inAppOwnershipType: FamilySharing.familyShared, price: 0, currency: purchase.currency)
        try ledger.insert(record)
        return record
    }

    /// Whether a family member's share `original` gives access now: running, and the purchaser's subscription gives
    /// access (its grace period too).
    public func shareGivesAccess(_ original: String) -> Bool {
        logged("read the family share \(original)") { () throws(DatabaseError) -> Bool in
            guard let share = try ledger.familyShare(original), share.ended == nil,
                let subscription = try ledger.subscription(share.purchaserOriginalTransactionId)
            else { return false }
            return subscription.state.isEntitled
        } ?? false
    }

    /// Whether the purchaser's renewal renews a running family share `original` (`renewsForFamily`); nil for anything
    /// else, a share that ended, or records that cannot be read.
    public func shareRenews(_ original: String) -> Bool? {
        logged("read the family share \(original)") { () throws(DatabaseError) -> Bool? in
            guard let share = try ledger.familyShare(original), share.ended == nil,
                let subscription = try ledger.subscription(share.purchaserOriginalTransactionId),
                subscription.isRunning
            else { return nil }
            return renewsForFamily(subscription)
        } ?? nil
    }

    /// A running family share's renewal state, the purchaser's under the member's ids: what a receipt's pending renewal
    /// info says of it. Nil for anything else, or a share that ended.
    func sharedRenewal(of original: String) -> RenewalInfo? {
        logged("read the family share \(original)") { () throws(DatabaseError) -> RenewalInfo? in
            guard let share = try ledger.familyShare(original), share.ended == nil,
                let subscription = try ledger.subscription(share.purchaserOriginalTransactionId),
                let latest = try ledger.transactions(originalTransactionId: original).last,
                let member = shared(subscription, as: latest)
            else { return nil }
            return renewalInfo(member)
        } ?? nil
    }

    /// The family's shares with `appleId` as Get All Subscription Statuses lists them beside the Apple ID's own
    /// subscriptions (Apple answers about a FAMILY_SHARED transaction id too): each under the member's ids with the
    /// purchaser's state, its billing grace period included, and revoked once the share ended. The server asks about
    /// a share that lapsed at the purchaser's failed renewal; left out, the share read as ended and the member lost
    /// access at the instant the purchaser's grace period began (fuzz seed 4976, session 36). Each subscription the
    /// member's transactions share, paired with its latest transaction and the record its status and renewal info
    /// come from; nothing read for an Apple ID never in a family.
    func sharedStatuses(of appleId: String) throws(DatabaseError) -> [(
        latest: TransactionRecord, subscription: SubscriptionRecord
    )] {
        guard try ledger.mayHaveFamily(appleId) else { return [] }
        var latestByShare: [String: TransactionRecord] = [:]
        var order: [String] = []
        for record in try ledger.transactions(appleId: appleId) where record.isFamilyShared {
            if latestByShare[record.originalTransactionIdentifier] == nil {
                order.append(record.originalTransactionIdentifier)
            }
            latestByShare[record.originalTransactionIdentifier] = record
        }
        var statuses: [(latest: TransactionRecord, subscription: SubscriptionRecord)] = []
        for original in order {
            guard let latest = latestByShare[original], let share = try ledger.familyShare(original),
                let purchased = try ledger.subscription(share.purchaserOriginalTransactionId),
                var member = shared(purchased, as: latest)
            else { continue }
            if share.ended != nil {
                member.state = .revoked
                member.autoRenew = false
            }
            statuses.append((latest, member))
        }
        return statuses
    }

    /// The purchaser's renewal state as the member's notifications carry it, under the member's own ids: auto-renew
    /// off where the purchaser's renewal does not renew the share (`renewsForFamily`); a raised price is the
    /// purchaser's to agree to, never asked of the member.
    private func shared(_ subscription: SubscriptionRecord?, as record: TransactionRecord) -> SubscriptionRecord? {
        guard let subscription else { return nil }
        let renews = renewsForFamily(subscription)
        return SubscriptionRecord(
            originalTransactionId: record.originalTransactionIdentifier, appleId: record.appleId,
            deviceId: record.deviceId, groupId: subscription.groupId, productId: subscription.productId,
            autoRenewProductId: renews ? subscription.autoRenewProductId : subscription.productId, autoRenew: renews,
            state: subscription.state, expiresDate: subscription.expiresDate,
            gracePeriodExpiresDate: subscription.gracePeriodExpiresDate,
            billingRetryEndsDate: subscription.billingRetryEndsDate, expirationIntent: subscription.expirationIntent,
            priceIncreaseStatus: nil, introPeriodsLeft: 0,
            latestTransactionId: record.transactionIdentifier)
    }
}
