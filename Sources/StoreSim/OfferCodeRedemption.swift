import SimKernel
import WhiteLabel

extension PaymentQueue {
    /// The reader redeems an offer code on the App Store (outside the app): for a new or lapsed subscriber the
    /// store charges the code's price for its periods and the observer hears a purchased transaction; for a
    /// running subscriber the code starts at the next renewal. Nil when honoured, else why not.
    public func redeemOfferCode(_ code: String) -> String? {
        store.log("offer code \(code) redeemed by \(appleId)")
        let matches = store.catalog.specs.filter { spec in
            spec.offerCodes?.contains { $0.code.lowercased() == code.lowercased() } == true
        }
        guard let spec = matches.first else {
            let known = store.catalog.specs.flatMap { $0.offerCodes ?? [] }.map(\.code)
            return refuse(
                "no offer code \"\(code)\" (codes: \(known.isEmpty ? "none" : known.joined(separator: ", ")))")
        }
        guard let product = store.product(spec.productId), let (terms, discount) = store.offerCode(code, of: product)
        else { return refuse("\(spec.productId) is not sold in \(store.storefront.countryCode)") }
        let applied = AppliedOffer(discount: discount, offerType: 3, key: "code:\(terms.code)")
        do {
            let inGroup = try store.ledger.subscriptions(appleId: appleId).filter {
                $0.groupId == product.subscriptionGroupIdentifier
            }
            let running = inGroup.first { $0.state.isEntitled || $0.state == .billingRetry }
            let who: OfferCodeSpec.Eligibility = running != nil ? .existing : inGroup.isEmpty ? .new : .expired
            guard terms.eligibility.contains(who) else {
                let names = terms.eligibility.map(\.rawValue).joined(separator: ", ")
                return refuse("\(terms.code) is for \(names) subscribers; \(appleId) is \(who.rawValue)")
            }
            if let running {
                try store.applyAtNextRenewal(applied, to: running.originalTransactionId, renewingTo: product)
                // Apple tells the server (OFFER_REDEEMED, DOWNGRADE when it renews into another plan then): without
                // it, the profile said the old plan "renews" while Apple's sheet said it switches (session 24).
                if let changed = try store.ledger.subscription(running.originalTransactionId) {
                    let switches = product.productIdentifier != running.productId
                    try store.notifyLatest(.offerRedeemed, switches ? .downgrade : nil, changed)
                }
                return nil
            }
            paymentCount += 1
            let record = try store.purchase(product, appleId: appleId, deviceId: deviceId, offer: applied)
            if let issued = store.issueReceipt(deviceId: deviceId, appleId: appleId) { receipt.save(issued) }
            deliver(purchased(paymentCount, record), after: .zero)
            return nil
        } catch {
            store.failed("redeem offer code \(code)", error)
            return "the App Store's records failed: \(error)"
        }
    }

    private func refuse(_ reason: String) -> String {
        store.log("offer code refused: \(reason)")
        return reason
    }
}
