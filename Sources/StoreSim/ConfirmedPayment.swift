import Database
import SimKernel

extension AppStore {
    /// The reader confirmed Apple's sheet for `product`, with `offer` if one applies, or with its introductory offer when
    /// the sheet stated it (`trialShown`): the payment's number among this world's confirmations, which its charge names
    /// however long it is held (`recordCharge`). The offer's price is recorded as the sheet stated it, for invariant 13
    /// to compare with the charge.
    func confirmed(_ product: Product, offer: AppliedOffer?, trialShown: Bool = false) -> Int {
        confirmedPayments += 1
        if let offer {
            timeline.record(
                .offerPaymentConfirmed(
                    payment: confirmedPayments, productId: product.productIdentifier, offerId: offer.key,
                    offerType: offer.offerType,
                    price: StorePrice(Self.price(offer.discount), in: storefront.countryCode)))
        } else if trialShown, let introductory = product.introductoryOffer {
            timeline.record(
                .offerPaymentConfirmed(
                    payment: confirmedPayments, productId: product.productIdentifier, offerId: "introductory",
                    offerType: 1, price: StorePrice(Self.price(introductory), in: storefront.countryCode)))
        }
        return confirmedPayments
    }

    /// Charges a payment confirmed on Apple's sheet, at once or once released, with its terms: at the price of the offer
    /// confirmed with it, or not at all (nil) when that offer no longer applies (`offerAtCharge`). `made`: the
    /// transaction is one this payment made (numbered after it began), not "already subscribed", which answers with an
    /// older one, even one charged at this very instant (a code redeemed as an interrupted payment resolved, long fuzz
    /// seed 1869).
    func purchase(confirmed product: Product, appleId: String, deviceId: String, terms: ChargeTerms)
        throws(DatabaseError) -> (record: TransactionRecord, made: Bool)?
    {
        // The sheet said "Free for 1 week, then …": charged without it (another phone's charge in the group landed while
        // the sheet was up, and the trial became an upgrade at $59.99, session 26), it is a price never shown.
        if terms.introductoryOfferShown, !isEligibleForIntroductoryOffer(product, appleId: appleId) {
            log(
                "payment of \(product.productIdentifier): the introductory offer its sheet showed no longer applies; nothing charged"
            )
            return nil
        }
        var offer: AppliedOffer?
        if let offerId = terms.offerId {
            offer = offerAtCharge(offerId, of: product, appleId: appleId)
            guard offer != nil else { return nil }
        }
        let firstNew = try ledger.nextTransactionNumber()
        let record = try purchase(
            product, appleId: appleId, deviceId: deviceId, appAccountToken: terms.appAccountToken, offer: offer)
        // A plan change set for the renewal answers with the running subscription's transaction, another product's,
        // which may have been charged in this same instant (a code redeemed meanwhile, long fuzz seed 1066): not made.
        let made = Self.transactionNumber(record.transactionIdentifier) >= firstNew
        if made, record.productIdentifier == product.productIdentifier { recordCharge(of: terms.confirmation, record) }
        return (record, made)
    }

    /// The payment confirmed as `confirmation` was charged as `record`, a transaction it made.
    private func recordCharge(of confirmation: Int?, _ record: TransactionRecord) {
        guard let confirmation else { return }
        timeline.record(
            .confirmedPaymentCharged(
                payment: confirmation, transactionId: record.transactionIdentifier,
                price: record.price.map { StorePrice($0, in: storefront.countryCode) }, offerType: record.offerType))
    }
}

/// What a payment confirmed on Apple's sheet is charged with, however long it waits: the customer the app named on
/// it, the promotional offer confirmed (`AppliedOffer.key`), and its confirmation's number in this world.
struct ChargeTerms {
    var appAccountToken: String? = nil
    var offerId: String? = nil
    var confirmation: Int? = nil
    /// The sheet showed the product's introductory offer (a free trial): charged with it or not at all when charged at
    /// once; a held payment is charged at the terms of its approval (`PaymentQueue.postpone`).
    var introductoryOfferShown = false
}

extension PendingPayment {
    var terms: ChargeTerms {
        ChargeTerms(appAccountToken: appAccountToken, offerId: offerId, confirmation: confirmation)
    }
}
