import FoundationEssentials

/// An amount in the currency of a storefront (`USA`, `FRA`): prices of two storefronts do not compare.
public struct StorePrice: Hashable, Sendable, CustomStringConvertible {
    public let amount: Decimal
    public let storefront: String

    public init(_ amount: Decimal, in storefront: String) {
        self.amount = amount
        self.storefront = storefront
    }

    public var description: String { "\(amount) (\(storefront))" }
}
