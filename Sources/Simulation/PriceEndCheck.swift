import SimKernel

/// Invariant 20, its second half: Apple ends a subscription for a raised price only when the plan it renews as had
/// its price raised after the subscriber chose that plan. A plan chosen (bought, switched to, renewed into by a code)
/// was chosen at the price Apple's sheet showed then; a consent the old plan waited for is not the new plan's. Found
/// by a tester in session 24: an upgrade to Coach inherited Workouts' raised price and the paid year ended.
struct PriceEndCheck {
    /// The plan each subscription renews as, and when the subscriber chose it; unknown for one chosen before the
    /// monitor started watching (nothing is judged of it).
    private var chosen: [String: (productId: String, at: SimInstant)] = [:]
    /// When each product's price was last raised.
    private var raised: [String: SimInstant] = [:]

    /// Reads one of the store's events; a violation when `event` ends a subscription for a price never raised.
    mutating func read(_ event: WorldEvent, at time: SimInstant, judging: Bool) -> InvariantViolation? {
        switch event {
        case .renewalProductChosen(let original, let productId):
            chosen[original] = (productId, time)
        case .priceRaised(let productId):
            raised[productId] = time
        case .endedForPrice(let original, let productId) where judging:
            guard let choice = chosen[original] else { return nil }
            if choice.productId != productId {
                return InvariantViolation(
                    .priceConsentAsked,
                    "Apple ended \(original) for the raised price of \(productId), but the subscriber chose "
                        + "\(choice.productId) at \(choice.at)")
            }
            guard (raised[productId].map { $0 < choice.at }) ?? true else { return nil }
            return InvariantViolation(
                .priceConsentAsked,
                "Apple ended \(original) for a raised price, but the price of \(productId) was not raised since the "
                    + "subscriber chose it at \(choice.at)")
        default:
            break
        }
        return nil
    }
}
