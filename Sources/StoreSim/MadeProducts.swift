import FoundationEssentials
import Synchronization
import WhiteLabel

/// Products already localized, and prices already parsed, for the whole process: a product is a pure
/// function of its spec, the storefront and the locale, and making one (parsing its prices with
/// Foundation's `Decimal`, formatting them) cost as much as a fuzz step's SQL. Every world of a fuzz run
/// asks for the same few; a spec that differs under the same identifier is made again.
final class MadeProducts: Sendable {
    static let shared = MadeProducts()

    private struct Key: Hashable {
        let productId: String
        let storefront: Storefront
        let locale: String
    }

    private let products = Mutex<[Key: (spec: StoreProductSpec, product: Product?)]>([:])
    private let prices = Mutex<[String: Decimal?]>([:])

    func product(_ spec: StoreProductSpec, storefront: Storefront, locale: String, make: () -> Product?) -> Product? {
        let key = Key(productId: spec.productId, storefront: storefront, locale: locale)
        if let made = products.withLock({ $0[key] }), made.spec == spec { return made.product }
        let product = make()
        products.withLock { products in
            if products.count >= 4_096 { products.removeAll() }  // bounded, whatever a long run asks
            products[key] = (spec, product)
        }
        return product
    }

    /// `text` as a decimal number in the POSIX locale, nil when it is not one.
    func price(_ text: String, parse: (String) -> Decimal?) -> Decimal? {
        if let parsed = prices.withLock({ $0[text] }) { return parsed }
        let parsed = parse(text)
        prices.withLock { prices in
            if prices.count >= 4_096 { prices.removeAll() }
            prices[text] = .some(parsed)
        }
        return parsed
    }
}
