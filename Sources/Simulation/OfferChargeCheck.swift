import SimKernel

/// Invariant 13, at the charge: a payment confirmed on Apple's sheet at an offer's price (a promotional offer, or the
/// introductory offer the sheet stated: "Free for 1 week") is charged with that offer at that price, or not at all (a
/// trial confirmed on one phone was charged $59.99 as an upgrade once another phone's charge landed, session 26). However long it waits (a parent's approval, an interrupted purchase resolved, a restart),
/// the charge is the offer's; the full price the reader never confirmed is a price nobody agreed to (a held win-back
/// payment was charged $4.99 for "$1.99 per month for 3 months", session 26). The two prices are compared in one
/// storefront only: a payment settled after a move abroad is charged there, in its currency, and only its offer judged.
struct OfferChargeCheck {
    /// The offer each payment was confirmed with, by its confirmation's number, until it is charged.
    private var confirmed: [Int: (productId: String, offerId: String, offerType: Int, price: StorePrice)] = [:]

    /// Reads one of the store's events; a violation when `event` charges a payment confirmed at an offer's price at
    /// another.
    mutating func read(_ event: WorldEvent, judging: Bool) -> InvariantViolation? {
        switch event {
        case .offerPaymentConfirmed(let payment, let productId, let offerId, let offerType, let price):
            confirmed[payment] = (productId, offerId, offerType, price)
        case .confirmedPaymentCharged(let payment, let transactionId, let price, let offerType):
            guard let deal = confirmed.removeValue(forKey: payment), judging else { return nil }
            let charged = price.map { "\($0.amount)" } ?? "an unknown price"
            guard offerType == deal.offerType else {
                return InvariantViolation(
                    .sheetsTellTheTruth,
                    "Apple's sheet confirmed \(deal.productId) with the offer \(deal.offerId) at \(deal.price.amount); "
                        + "transaction \(transactionId) charged \(charged) without it")
            }
            guard let price, price.storefront == deal.price.storefront, price.amount != deal.price.amount else {
                return nil
            }
            return InvariantViolation(
                .sheetsTellTheTruth,
                "Apple's sheet confirmed \(deal.productId) with the offer \(deal.offerId) at \(deal.price.amount); "
                    + "transaction \(transactionId) charged \(charged)")
        default:
            break
        }
        return nil
    }
}
