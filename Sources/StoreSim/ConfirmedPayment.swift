import Database

extension AppStore {
    /// Charges a payment confirmed on Apple's sheet, at once or once released, with its terms: at the price of the offer
    /// confirmed with it, or not at all (nil) when that offer no longer applies (`offerAtCharge`).
    func purchase(confirmed product: Product, appleId: String, deviceId: String, terms: ChargeTerms)
        throws(DatabaseError) -> TransactionRecord?
    {
        var offer: AppliedOffer?
        if let offerId = terms.offerId {
            offer = offerAtCharge(offerId, of: product, appleId: appleId)
            guard offer != nil else { return nil }
        }
        return try purchase(
            product, appleId: appleId, deviceId: deviceId, appAccountToken: terms.appAccountToken, offer: offer)
    }
}

/// What a payment confirmed on Apple's sheet is charged with, however long it waits: the customer the app named on
/// it and the promotional offer confirmed (`AppliedOffer.key`).
struct ChargeTerms {
    var appAccountToken: String? = nil
    var offerId: String? = nil
}

extension PendingPayment {
    var terms: ChargeTerms {
        ChargeTerms(appAccountToken: appAccountToken, offerId: offerId)
    }
}
