import FoundationEssentials
import SimKernel

/// Invariant 20, its second half: a subscriber pays a raised price only after agreeing to it, and loses the
/// subscription for a raise only when one they did not agree to was due. Each subscription renews as a plan at the
/// regular price the subscriber agreed to: the price Apple's sheet showed when they chose the plan (bought, switched
/// to, renewed into by a code), or a raise they consented to. Then:
/// - a renewal at the plan's regular price charges no more than that (a raise made while the sheet was up, or while
///   Apple retried a failed payment, renewed at the new price unasked, session 25);
/// - an end for a raised price needs a price above that, of the plan chosen (an upgrade inherited Workouts' raise and
///   the paid Coach year ended, session 24), and no offer's period next (a raise during a three-month introductory
///   price ended it after one, session 25).
/// Prices of two storefronts are not compared: a move abroad is not a raise; but an end for the price of a storefront
/// where the plan was never raised is (a raise in the USA ended a subscription renewing in Britain, session 25).
struct PriceEndCheck {
    /// The plan each subscription renews as and the regular price agreed for it; unknown for one chosen before the
    /// monitor started watching (nothing is judged of it).
    private var agreed: [String: (productId: String, price: StorePrice)] = [:]
    /// The highest price ever agreed for each subscription's plan in each storefront (`ORIGINAL|STOREFRONT|PRODUCT`):
    /// a consent once given stands there, as the App Store keeps it, though the plan be chosen again at a lower price
    /// (a held payment settled at the price before a raise the subscriber had agreed to, long fuzz seed 1077).
    private var highest: [String: Decimal] = [:]
    /// Each product raised, by storefront (`PRODUCT|STOREFRONT`), and its price there before any raise.
    private var raised: Set<String> = []
    private var unraised: [String: Decimal] = [:]

    /// Reads one of the store's events; a violation when `event` charges or ends against the price agreed.
    mutating func read(_ event: WorldEvent, judging: Bool) -> InvariantViolation? {
        switch event {
        case .renewalProductChosen(let original, let productId, let price):
            agreed[original] = (productId, price)
            let key = "\(original)|\(price.storefront)|\(productId)"
            highest[key] = max(highest[key] ?? price.amount, price.amount)
        case .priceRaised(let productId, let storefront, let before):
            raised.insert("\(productId)|\(storefront)")
            if let before, unraised["\(productId)|\(storefront)"] == nil {
                unraised["\(productId)|\(storefront)"] = before.amount
            }
        case .renewalCharged(let original, let productId, let price, offer: false) where judging:
            if let abroad = Self.unagreedAbroad(
                original, productId, price, deal: agreed[original],
                agreedThere: highest["\(original)|\(price.storefront)|\(productId)"],
                before: unraised["\(productId)|\(price.storefront)"])
            {
                return abroad
            }
            guard let deal = agreed[original], deal.productId == productId,
                deal.price.storefront == price.storefront, price.amount > deal.price.amount,
                price.amount > highest["\(original)|\(price.storefront)|\(productId)"] ?? 0
            else { return nil }
            return InvariantViolation(
                .priceConsentAsked,
                "Apple renewed \(original) as \(productId) at \(price.amount), but the subscriber agreed to "
                    + "\(deal.price.amount) and never to a raise")
        case .endedForPrice(let original, let productId, let price, let offerDue) where judging:
            guard let deal = agreed[original] else { return nil }
            if offerDue {
                return InvariantViolation(
                    .priceConsentAsked,
                    "Apple ended \(original) for a raised price of \(productId) while an offer's period was next: the "
                        + "raise applies from the first renewal at the plan's regular price")
            }
            if deal.productId != productId {
                return InvariantViolation(
                    .priceConsentAsked,
                    "Apple ended \(original) for the raised price of \(productId), but the subscriber chose "
                        + "\(deal.productId)")
            }
            guard let price else { return nil }
            if price.storefront != deal.price.storefront {
                guard !raised.contains("\(productId)|\(price.storefront)") else { return nil }
                return InvariantViolation(
                    .priceConsentAsked,
                    "Apple ended \(original) for a raised price of \(productId), never raised in \(price.storefront), "
                        + "where it renews")
            }
            guard price.amount <= deal.price.amount else { return nil }
            return InvariantViolation(
                .priceConsentAsked,
                "Apple ended \(original) for a raised price, but \(productId) renews at \(price.amount), which the "
                    + "subscriber agreed to")
        default:
            break
        }
        return nil
    }

    /// A renewal in a storefront other than the one the plan was chosen in, above the price the plan sold at there
    /// before any raise and above any price agreed there: a raise there charged unasked (a yearly plan paid in dollars
    /// renewed at a raised price in pounds, long fuzz seed 1037, while the check compared only one storefront).
    private static func unagreedAbroad(
        _ original: String, _ productId: String, _ price: StorePrice,
        deal: (productId: String, price: StorePrice)?, agreedThere: Decimal?, before: Decimal?
    ) -> InvariantViolation? {
        guard let deal, deal.productId == productId, deal.price.storefront != price.storefront, let before,
            price.amount > max(before, agreedThere ?? before)
        else { return nil }
        return InvariantViolation(
            .priceConsentAsked,
            "Apple renewed \(original) as \(productId) at \(price.amount) in \(price.storefront), where it sold at "
                + "\(before) before any raise and the subscriber agreed to no more")
    }
}
