import StoreSim

/// Invariant 13, at every charge (a purchase, a renewal, a plan change, an offer code): Apple gives an Apple ID one
/// introductory offer per subscription group. A transaction at an introductory price is the Apple ID's first in the
/// group, or one more period of that same offer: the same subscription and plan, no charge without it between, no
/// more periods than the offer has. A switch of plan waiting for the renewal then renews at the price Apple's manage
/// sheet showed, not at the new plan's introductory price (a monthly plan's $2.49 offer was followed by the yearly's
/// $8.99 one at the renewal into it, session 27).
struct IntroOfferCheck {
    /// The introductory offer each Apple ID had in each group (`APPLE_ID|GROUP`).
    private struct Given {
        let original: String
        let productId: String
        let transactionId: String
        /// How many transactions it priced.
        var periods: Int
        /// A transaction of its subscription without it came after: the offer is over.
        var over: Bool
    }

    private var given: [String: Given] = [:]
    private var seen: Set<String> = []

    /// Reads what was charged before the monitor started, judging none of it.
    init(world: World) {
        _ = read(world.chargedTransactions, world: world, judging: false)
    }

    /// Each transaction charged since the last call at an introductory price it was not due.
    mutating func check(_ context: StepContext) -> [InvariantViolation] {
        read(context.charged, world: context.world, judging: true)
    }

    private mutating func read(_ charged: [TransactionRecord], world: World, judging: Bool) -> [InvariantViolation] {
        let fresh = charged.filter { !$0.isFamilyShared && !seen.contains($0.transactionIdentifier) }
            .sorted { ($0.purchaseDate, $0.transactionIdentifier) < ($1.purchaseDate, $1.transactionIdentifier) }
        var found: [InvariantViolation] = []
        for record in fresh {
            seen.insert(record.transactionIdentifier)
            let spec = world.store.catalog.spec(for: record.productIdentifier)
            guard let group = spec?.subscriptionGroup else { continue }
            let key = "\(record.appleId)|\(group)"
            guard record.offerType == 1 else {
                if given[key]?.original == record.originalTransactionIdentifier { given[key]?.over = true }
                continue
            }
            guard var offer = given[key] else {
                given[key] = Given(
                    original: record.originalTransactionIdentifier, productId: record.productIdentifier,
                    transactionId: record.transactionIdentifier, periods: 1, over: false)
                continue
            }
            offer.periods += 1
            given[key] = offer
            let most = spec?.introductoryOffer.map { $0.paymentMode == .payAsYouGo ? $0.periodCount ?? 1 : 1 } ?? 0
            let again =
                offer.over || offer.original != record.originalTransactionIdentifier
                || offer.productId != record.productIdentifier
            guard judging, again || offer.periods > most else { continue }
            let price = record.price.map { "\($0)" } ?? "an unknown price"
            found.append(
                InvariantViolation(
                    .sheetsTellTheTruth,
                    "Apple charged \(record.appleId) \(price) for \(record.productIdentifier) at an introductory "
                        + "price (transaction \(record.transactionIdentifier), \(record.transactionReason ?? "?")), "
                        + (again
                            ? "but the Apple ID had its introductory offer in the group already (\(offer.productId), "
                                + "transaction \(offer.transactionId))"
                            : "period \(offer.periods) of an offer of \(most)")))
        }
        return found
    }
}
