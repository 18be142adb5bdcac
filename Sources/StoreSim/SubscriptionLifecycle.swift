import Database
import FoundationEssentials
import SimKernel
import WhiteLabel

/// The App Store's side of an auto-renewable subscription on the virtual clock: the first purchase,
/// changes within the group, renewal at each period end, billing retry and grace, expiry. Each
/// change is recorded in the ledger and told to the backend as a server notification.
extension AppStore {
    /// How long billing retry lasts after a failed renewal.
    public static let billingRetryLength = SimDuration.days(60)

    /// The grace period Apple gives after a failed renewal: 6 days for weekly plans, 16 for the others.
    static func gracePeriodLength(_ period: CalendarPeriod?) -> SimDuration {
        period?.unit == .week || period?.unit == .day ? .days(6) : .days(16)
    }

    /// Charges for `product` once the reader (or a parent) said yes: a one-time purchase, a new
    /// subscription, a resubscription, or a change within a group the Apple ID already subscribes to.
    func purchase(
        _ product: Product, appleId: String, deviceId: String, appAccountToken: String? = nil,
        offer applied: AppliedOffer? = nil
    ) throws(DatabaseError) -> TransactionRecord {
        let kind = catalog.spec(for: product.productIdentifier)?.type
        guard kind == .autoRenewable, let group = product.subscriptionGroupIdentifier else {
            let record = try recordTransaction(
                product: product, appleId: appleId, deviceId: deviceId, appAccountToken: appAccountToken)
            log("charged \(appleId) for \(product.productIdentifier): transaction \(record.transactionIdentifier)")
            notify(.oneTimeCharge, nil, record, nil)
            return record
        }
        let inGroup = try ledger.subscriptions(appleId: appleId).filter { $0.groupId == group }
        if let current = inGroup.first(where: { $0.state != .expired && $0.state != .revoked }) {
            // The phone that paid is the transaction's: its observer hears it, its next launch gets it again.
            let record = try change(current, to: product, appAccountToken: appAccountToken, deviceId: deviceId)
            if let applied {
                try applyAtNextRenewal(applied, to: current.originalTransactionId)
                // Apple tells the server of an offer redeemed for an active subscription (OFFER_REDEEMED, DOWNGRADE
                // when it renews into another plan then), as for a code: without it the profile said a raised price
                // ends what Apple renews at the offer's price (a signed offer bought while subscribed, long fuzz
                // seed 1212).
                if let changed = try ledger.subscription(current.originalTransactionId) {
                    let switches = changed.autoRenewProductId != changed.productId
                    try notifyLatest(.offerRedeemed, switches ? .downgrade : nil, changed)
                }
            }
            return record
        }
        // An offer the reader applied (signed, or a code) replaces the introductory offer, as on Apple's sheet.
        let intro = isEligibleForIntroductoryOffer(product, appleId: appleId) ? product.introductoryOffer : nil
        let offer = applied?.discount ?? intro
        let previous = inGroup.first
        let record = try recordTransaction(
            product: product, appleId: appleId, deviceId: deviceId, original: previous?.originalTransactionId,
            periodLength: offer.map(Self.firstIntroPeriod),
            offerType: applied?.offerType ?? (offer == nil ? nil : 1), appAccountToken: appAccountToken,
            price: offer.map(Self.price))
        var subscription = SubscriptionRecord(
            originalTransactionId: record.originalTransactionIdentifier, appleId: appleId, deviceId: deviceId,
            groupId: group, productId: product.productIdentifier, autoRenewProductId: product.productIdentifier,
            autoRenew: true, state: .active, expiresDate: record.expiresDate ?? scheduler.now,
            gracePeriodExpiresDate: nil, billingRetryEndsDate: nil, expirationIntent: nil, priceIncreaseStatus: nil,
            introPeriodsLeft: offer.map(Self.offerPeriodsLeft) ?? 0,
            latestTransactionId: record.transactionIdentifier, offerId: applied?.key,
            renewalAnchor: Self.anchor(
                after: offer.map(Self.firstIntroPeriod) ?? product.subscriptionPeriod, of: record,
                kept: record.purchaseDate))
        let asksConsent = agreeToPrice(of: product, &subscription)
        try ledger.save(subscription)
        log(
            "charged \(appleId) for \(product.productIdentifier)\(Self.charged(applied)): transaction \(record.transactionIdentifier)"
                + (applied == nil ? offer.map { ", introductory offer \($0.paymentMode.rawValue)" } ?? "" : "")
                + ", until \(subscription.expiresDate)",
            event: chosen(subscription, product))
        notify(.subscribed, previous == nil ? .initialBuy : .resubscribe, record, subscription)
        if asksConsent { try askConsent(subscription) }
        scheduleNext(subscription)
        return record
    }

    /// What one charge of an offer is: nothing for a free trial, the whole length's price paid up front, one
    /// period's paid as you go (StoreKit's `price` of a discount is each of those).
    static func price(_ offer: ProductDiscount) -> Decimal {
        offer.paymentMode == .freeTrial ? 0 : offer.price
    }

    /// A free trial or pay-up-front offer covers its whole length at once; pay-as-you-go bills each period.
    static func firstIntroPeriod(_ offer: ProductDiscount) -> CalendarPeriod {
        guard offer.paymentMode != .payAsYouGo else { return offer.subscriptionPeriod }
        var period = offer.subscriptionPeriod
        period.value *= max(offer.numberOfPeriods, 1)
        return period
    }

    /// The anniversary the periods after `record`, of `length`, count from: `kept`, unless it is a period of days or
    /// weeks (a free week), which no anniversary is counted from: the count starts at its end.
    static func anchor(after length: CalendarPeriod?, of record: TransactionRecord, kept: SimInstant) -> SimInstant {
        guard length?.unit == .day || length?.unit == .week, let end = record.expiresDate else { return kept }
        return end
    }

    /// Apple's rule: a new subscriber is eligible; one with an active subscription in the group is not,
    /// nor one who ever had an introductory offer anywhere in the group, even after it expired.
    public func isEligibleForIntroductoryOffer(_ product: Product, appleId: String) -> Bool {
        guard product.introductoryOffer != nil, let group = product.subscriptionGroupIdentifier else { return false }
        // A ledger that cannot be read proves nothing: not eligible (fails closed), with a line saying why.
        guard let all = logged("check introductory offer eligibility", { try ledger.subscriptions(appleId: appleId) })
        else { return false }
        let inGroup = all.filter { $0.groupId == group }
        if inGroup.contains(where: { $0.state.isEntitled || $0.state == .billingRetry }) { return false }
        for subscription in inGroup {
            let original = subscription.originalTransactionId
            guard
                let hadOffer = logged(
                    "check introductory offer eligibility",
                    { try ledger.hadIntroductoryOffer(originalTransactionId: original) })
            else { return false }
            if hadOffer { return false }
        }
        return true
    }

    /// Buying another product of the group while subscribed: an upgrade (or a crossgrade of the same
    /// length) takes effect now in a new period; a downgrade (or a crossgrade of another length) at the
    /// next renewal. Buying the current product again turns auto-renew back on; buying it back after a
    /// pending downgrade cancels the downgrade.
    func change(
        _ current: SubscriptionRecord, to product: Product, appAccountToken: String?, deviceId: String? = nil
    ) throws(DatabaseError) -> TransactionRecord {
        var subscription = current
        guard let latest = try ledger.transaction(current.latestTransactionId) else {
            // Records that lost their transaction cannot be changed; charge as a plain purchase rather than fail.
            return try recordTransaction(
                product: product, appleId: current.appleId, deviceId: deviceId ?? current.deviceId)
        }
        if product.productIdentifier == current.productId {
            if current.autoRenewProductId != current.productId {
                subscription.autoRenewProductId = current.productId
                // Kept after cancelling: a wish to go on with it, as another plan chosen then is.
                let resumes = !current.autoRenew
                subscription.autoRenew = true
                subscription.expirationIntent = nil
                let asksConsent = agreeToPrice(of: product, &subscription)
                try ledger.save(subscription)
                log(
                    "pending change cancelled: \(current.productId) renews as it is"
                        + (resumes ? ", auto-renew on again" : ""),
                    event: chosen(current, product))
                notify(.didChangeRenewalPref, nil, latest, subscription)
                if asksConsent { try askConsent(subscription) }
            } else if !current.autoRenew {
                try setAutoRenew(true, originalTransactionId: current.originalTransactionId)
            } else {
                log("already subscribed to \(product.productIdentifier): nothing charged")
            }
            return latest
        }
        let kind = planChange(from: current.productId, to: product.productIdentifier) ?? .crossgrade
        guard changesNow(from: current.productId, to: product) else {
            subscription.autoRenewProductId = product.productIdentifier
            // Another plan chosen after cancelling is a wish to go on with it: Apple renews into it then.
            let resumes = !subscription.autoRenew
            if resumes {
                subscription.autoRenew = true
                subscription.expirationIntent = nil
            }
            let asksConsent = agreeToPrice(of: product, &subscription)
            try ledger.save(subscription)
            log(
                "\(kind.rawValue): \(current.productId) changes to \(product.productIdentifier) at the next renewal"
                    + (resumes ? ", auto-renew on again" : ""),
                event: chosen(current, product))
            notify(.didChangeRenewalPref, .downgrade, latest, subscription)
            if asksConsent { try askConsent(subscription) }
            return latest
        }
        try ledger.markUpgraded(latest.transactionIdentifier)
        // Apple refunds the unused part of what the old period cost (`proratedRefund`), and charges the new
        // product's full period from now.
        let paidFor = catalog.spec(for: current.productId).flatMap {
            Catalog.product($0, storefront: storefront, locale: locale)
        }
        let refund = proratedRefund(latest, product: paidFor)
        let record = try recordTransaction(
            product: product, appleId: current.appleId, deviceId: deviceId ?? current.deviceId,
            original: current.originalTransactionId, appAccountToken: appAccountToken)
        subscription.productId = product.productIdentifier
        subscription.autoRenewProductId = product.productIdentifier
        subscription.autoRenew = true
        subscription.state = .active
        subscription.expiresDate = record.expiresDate ?? scheduler.now
        subscription.latestTransactionId = record.transactionIdentifier
        subscription.introPeriodsLeft = 0
        // A new period from now: its anniversary, as a purchase's.
        subscription.renewalAnchor = Self.anchor(
            after: product.subscriptionPeriod, of: record, kept: record.purchaseDate)
        let asksConsent = agreeToPrice(of: product, &subscription)
        try ledger.save(subscription)
        // In the currency it was paid in, wherever the Apple ID shops now.
        let refundText = PriceFormatter(locale: locale, currencyCode: latest.currency ?? storefront.currencyCode)
            .string(refund)
        log(
            "\(kind == .upgrade ? "upgraded" : "crossgraded") \(current.productId) to \(product.productIdentifier): "
                + "transaction \(record.transactionIdentifier) for \(product.localizedPrice), prorated refund "
                + "\(refundText) of transaction \(latest.transactionIdentifier)",
            event: chosen(current, product))
        // Apple's subtypes follow the timing: UPGRADE for any change now (a crossgrade of the same length
        // too), DOWNGRADE for any change at the next renewal.
        notify(.didChangeRenewalPref, .upgrade, record, subscription)
        if asksConsent { try askConsent(subscription) }
        scheduleNext(subscription)
        return record
    }

    /// The subscriber chose `product` for `subscription` at the price Apple's sheet showed, `product.price`
    /// (`WorldEvent.renewalProductChosen`).
    func chosen(_ subscription: SubscriptionRecord, _ product: Product) -> WorldEvent {
        .renewalProductChosen(
            originalTransactionId: subscription.originalTransactionId, productId: product.productIdentifier,
            price: StorePrice(product.price, in: storefront.countryCode))
    }

    /// Chosen at the price Apple's sheet showed: a consent the old plan waited for is no longer asked. But a raise
    /// made after the sheet was drawn (its payment confirmed at the old price) is asked of this subscriber as of any:
    /// true when consent is to be asked (`askConsent`, once the subscription is saved and told).
    func agreeToPrice(of product: Product, _ subscription: inout SubscriptionRecord) -> Bool {
        if choosingAPlanEndsItsConsent { subscription.priceIncreaseStatus = nil }
        guard let now = currentPrice(product.productIdentifier), now > product.price else {
            // Chosen at a raised price: agreed to, in this storefront, as a consent would be (a move away and back
            // asked it again and ended the plan, long fuzz seed 967).
            if priceIncreases["\(product.productIdentifier)|\(storefront.countryCode)"] != nil {
                var chosen = subscription
                chosen.autoRenewProductId = product.productIdentifier
                recordConsent(chosen)
            }
            return false
        }
        subscription.priceIncreaseStatus = 0
        return true
    }

    /// PRICE_INCREASE/PENDING for one subscription, as `requestPriceIncreaseConsent` tells every subscriber.
    func askConsent(_ subscription: SubscriptionRecord) throws(DatabaseError) {
        log(
            "price increase consent requested for \(subscription.originalTransactionId): chosen at the price before "
                + "the raise")
        try notifyLatest(.priceIncrease, .pending, subscription)
    }

    // MARK: - The clock

    /// Reschedules the next lifecycle event of every subscription kept on disk (a restarted world).
    func resumeLifecycle() {
        let subscriptions = logged("read the subscriptions to renew") { try ledger.allSubscriptions() }
        for subscription in subscriptions ?? [] { scheduleNext(subscription) }
    }

    /// Schedules what happens next to `subscription`: its period end, the end of its grace period,
    /// or the end of billing retry; nothing once it expired or was revoked.
    func scheduleNext(_ subscription: SubscriptionRecord) {
        let original = subscription.originalTransactionId
        if let event = lifecycleEvents.removeValue(forKey: original) { scheduler.cancel(event) }
        let due: SimInstant?
        switch subscription.state {
        case .active: due = subscription.expiresDate
        case .gracePeriod: due = subscription.gracePeriodExpiresDate
        case .billingRetry: due = subscription.billingRetryEndsDate
        case .expired, .revoked: due = nil
        }
        guard let due else { return }
        lifecycleEvents[original] = scheduler.schedule(after: due - scheduler.now, background: true) { [self] in
            lifecycleEvents[original] = nil
            // A renewal's transaction, its subscription and its family's shares are written in one commit.
            inOneCommit("write down the period end of \(original)") {
                _ = logged("renew or end subscription \(original)") { try lifecycleEventDue(original) }
            }
        }
    }

    private func lifecycleEventDue(_ original: String) throws(DatabaseError) {
        guard var subscription = try ledger.subscription(original) else { return }
        switch subscription.state {
        case .active:
            try periodEnded(subscription)
        case .gracePeriod where !subscription.autoRenew:
            // Cancelled during its grace: Apple does not go on retrying a payment the subscriber declined.
            try expire(subscription, subtype: .voluntary, intent: 1)
        case .gracePeriod:
            subscription.state = .billingRetry
            subscription.gracePeriodExpiresDate = nil
            try ledger.save(subscription)
            log("grace period over for \(original): no access until billing recovers")
            try notifyLatest(.gracePeriodExpired, nil, subscription)
            scheduleNext(subscription)
        case .billingRetry:
            try expire(subscription, subtype: .billingRetry, intent: 2)
        case .expired, .revoked:
            break
        }
    }

    /// The end of a paid or free period: renew, or expire, or enter billing retry.
    private func periodEnded(_ current: SubscriptionRecord) throws(DatabaseError) {
        var subscription = current
        if !subscription.autoRenew {
            let declinedIncrease = subscription.expirationIntent == 3
            return try expire(
                subscription, subtype: declinedIncrease ? .priceIncrease : .voluntary,
                intent: declinedIncrease ? 3 : 1)
        }
        // A raise applies from the first renewal at the plan's regular price: an offer's periods still due renew at
        // the offer's price (a raise during a three-month introductory price ended it after one, session 25).
        if subscription.priceIncreaseStatus == 0, !offerDue(subscription) {
            return try expire(subscription, subtype: .priceIncrease, intent: 3)
        }
        guard let product = product(subscription.autoRenewProductId) else {
            return try expire(subscription, subtype: .productNotForSale, intent: 4)
        }
        if billingRetryOnRenewal || billingIssueAppleIds.contains(subscription.appleId) {
            let grace = billingGracePeriodEnabled
            subscription.state = grace ? .gracePeriod : .billingRetry
            subscription.gracePeriodExpiresDate =
                grace ? subscription.expiresDate + Self.gracePeriodLength(product.subscriptionPeriod) : nil
            subscription.billingRetryEndsDate = subscription.expiresDate + Self.billingRetryLength
            subscription.expirationIntent = 2
            try ledger.save(subscription)
            log("renewal of \(subscription.originalTransactionId) failed: billing retry\(grace ? " with grace" : "")")
            try notifyLatest(.didFailToRenew, grace ? .gracePeriod : nil, subscription)
            scheduleNext(subscription)
            return
        }
        try renew(subscription, product: product, start: subscription.expiresDate, subtype: nil)
    }

    /// A new period: a new transaction with the same original transaction id, charged and recorded. It ends on the
    /// anniversary the subscription counts from, or on `start`'s when it starts a new count (`startsAnniversary`: a
    /// recovery once the grace period is over moves the renewal date to the day of the recovery).
    func renew(
        _ current: SubscriptionRecord, product: Product, start: SimInstant, subtype: NotificationSubtype?,
        startsAnniversary: Bool = false
    ) throws(DatabaseError) {
        var subscription = current
        let offerKey = subscription.offerId
        let intro = offerOnRenewal(subscription, as: product)
        let offerType = offerKey.map { $0.hasPrefix("code:") ? 3 : 2 } ?? 1
        let price: Decimal
        if let intro { price = Self.price(intro) } else { price = try regularPrice(subscription, product) }
        // A start off the anniversary (a file written before it was kept) starts a new count, as a recovery does.
        let anchor =
            subscription.renewalAnchor.flatMap {
                !startsAnniversary && CalendarPeriod.isAnniversary(start, of: $0) ? $0 : nil
            } ?? start
        let length = intro.map { $0.paymentMode == .payAsYouGo ? $0.subscriptionPeriod : Self.firstIntroPeriod($0) }
        let record = try recordTransaction(
            product: product, appleId: subscription.appleId, deviceId: subscription.deviceId,
            original: subscription.originalTransactionId, start: start, periodLength: length, anniversary: anchor,
            reason: "RENEWAL", offerType: intro == nil ? nil : offerType, price: price)
        subscription.renewalAnchor = Self.anchor(
            after: length ?? product.subscriptionPeriod, of: record, kept: anchor)
        // Periods no offer prices any more (a switch of plan) are over: none of them is charged later.
        subscription.introPeriodsLeft = intro == nil ? 0 : subscription.introPeriodsLeft - 1
        if subscription.introPeriodsLeft <= 0 { subscription.offerId = nil }
        subscription.productId = product.productIdentifier
        subscription.state = .active
        subscription.expiresDate = record.expiresDate ?? start
        subscription.gracePeriodExpiresDate = nil
        subscription.billingRetryEndsDate = nil
        subscription.expirationIntent = nil
        // A consented price increase is now the price; nothing is pending any more.
        if subscription.priceIncreaseStatus == 1 { subscription.priceIncreaseStatus = nil }
        subscription.latestTransactionId = record.transactionIdentifier
        try ledger.save(subscription)
        log(
            "renewed \(subscription.originalTransactionId)"
                + "\(Self.charged(offerKey.flatMap { key in intro.map { AppliedOffer(discount: $0, offerType: offerType, key: key) } })): "
                + "transaction \(record.transactionIdentifier) until \(subscription.expiresDate) for "
                + PriceFormatter(locale: locale, currencyCode: storefront.currencyCode).string(price),
            event: .renewalCharged(
                originalTransactionId: subscription.originalTransactionId, productId: product.productIdentifier,
                price: StorePrice(price, in: storefront.countryCode), offer: intro != nil))
        notify(.didRenew, subtype, record, subscription)
        scheduleNext(subscription)
    }

    func expire(_ current: SubscriptionRecord, subtype: NotificationSubtype, intent: Int) throws(DatabaseError) {
        var subscription = current
        subscription.state = .expired
        subscription.autoRenew = false
        subscription.expirationIntent = intent
        subscription.gracePeriodExpiresDate = nil
        subscription.billingRetryEndsDate = nil
        try ledger.save(subscription)
        log(
            "expired \(subscription.originalTransactionId) (\(subtype.rawValue))",
            event: subtype == .priceIncrease
                ? .endedForPrice(
                    originalTransactionId: subscription.originalTransactionId,
                    productId: subscription.autoRenewProductId,
                    price: currentPrice(subscription.autoRenewProductId).map {
                        StorePrice($0, in: storefront.countryCode)
                    },
                    // Unanswered, not declined (auto-renew still on), with an offer's period next.
                    offerDue: current.autoRenew && offerDue(current))
                : .subscriptionExpired(originalTransactionId: subscription.originalTransactionId))
        try notifyLatest(.expired, subtype, subscription)
        scheduleNext(subscription)
    }

    /// Whether the next renewal is one of an offer's periods: periods left, of an offer the plan it renews as has in
    /// this storefront (a code redeemed for the yearly plan does not price a switch to the monthly one, which renewed
    /// unasked at a raised price: long fuzz seed 1030).
    func offerDue(_ subscription: SubscriptionRecord) -> Bool {
        guard let product = product(subscription.autoRenewProductId) else { return false }
        return offerOnRenewal(subscription, as: product) != nil
    }

    /// The offer the next renewal of `subscription` as `product` is charged at: the promotional offer or code the
    /// reader applied, as `product` has it, or the subscription's introductory offer while it renews as the plan that
    /// gave it. A switch of plan ends an introductory offer: Apple gives one per subscription group, and the monthly
    /// plan's periods left are not the yearly plan's own introductory price (session 27).
    func offerOnRenewal(_ subscription: SubscriptionRecord, as product: Product) -> ProductDiscount? {
        guard subscription.introPeriodsLeft > 0 else { return nil }
        if let key = subscription.offerId { return subscriptionOffer(key, of: product) }
        return product.productIdentifier == subscription.productId ? product.introductoryOffer : nil
    }

    /// The type of the offer whose period the next renewal is (1 introductory, 2 promotional, 3 code), as renewal
    /// info tells it; nil for a regular renewal.
    public func nextOfferType(_ subscription: SubscriptionRecord) -> Int? {
        guard offerDue(subscription) else { return nil }
        return subscription.offerId.map { $0.hasPrefix("code:") ? 3 : 2 } ?? 1
    }

    /// The plan's price a regular renewal charges: the store's now, unless a raise of it still waits for the
    /// subscriber's consent (a renewal recovered from a billing issue, session 25): then what they last paid for the
    /// plan, or agreed to for it here, or its price before any raise (two raises: the older price, seed 1030).
    func regularPrice(_ subscription: SubscriptionRecord, _ product: Product) throws(DatabaseError) -> Decimal {
        guard subscription.priceIncreaseStatus == 0 else { return product.price }
        if let latest = try ledger.transaction(subscription.latestTransactionId),
            latest.productIdentifier == product.productIdentifier, latest.offerType == nil,
            let paid = latest.price(in: storefront.currencyCode)
        {
            return min(paid, product.price)
        }
        let key = "\(subscription.originalTransactionId)|\(storefront.countryCode)|\(product.productIdentifier)"
        let unraised = catalog.spec(for: product.productIdentifier).flatMap {
            Catalog.product($0, storefront: storefront, locale: locale)?.price
        }
        return min(consentsGiven[key] ?? unraised ?? product.price, product.price)
    }

    /// Whether the store's storefront sells this product now.
    public func sells(_ identifier: String) -> Bool { product(identifier) != nil }

    /// The sellable product with this identifier in the store's storefront, or nil.
    func product(_ identifier: String) -> Product? {
        products(for: [identifier]).products.first
    }

    /// What a products request answers in the store's storefront and locale. Kept per request: the
    /// catalog never changes, building a product formats its price, and every launch and renewal asks.
    func products(for identifiers: [String]) -> ProductsResponse {
        let key = "\(identifiers.joined(separator: ","))|\(storefront.countryCode)|\(locale)"
        if let cached = productsAnswers[key] { return cached }
        let answer = applyingPriceIncreases(
            catalog.products(for: identifiers, storefront: storefront, locale: locale))
        productsAnswers[key] = answer
        return answer
    }
}
