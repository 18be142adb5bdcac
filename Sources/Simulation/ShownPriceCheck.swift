import FoundationEssentials
import StoreSim

/// Invariant 13, the amounts themselves: Apple's payment sheet charges what it shows. A price with more decimals than
/// its currency has is shown rounded and charged as it is (0.49 in the yen shown "¥0" and charged 0.49, session 34),
/// and a paid offer at nothing is told as free: either is a price the reader never read.
extension World {
    func shownPriceViolations() -> [InvariantViolation] {
        // The product the sheet was drawn for, in its storefront's currency: the Apple ID may have moved since
        // (a sheet in dollars judged in yen, fuzz --storekit, session 34).
        guard let sheet = device.queue.sheet, sheet.kind == .payment, let product = device.queue.sheetProduct
        else { return [] }
        var problems: [String] = []
        let discount = device.queue.sheetOffer
        if let discount, discount.paymentMode != .freeTrial, discount.price <= 0 {
            problems.append("a paid offer (\(discount.paymentMode)) is charged nothing: \(discount.localizedPrice)")
        }
        let places = product.currencyCode == "JPY" ? 0 : 2
        var amounts = [(product.price, product.localizedPrice)]
        if let discount, discount.paymentMode != .freeTrial {
            amounts.append((discount.price, discount.localizedPrice))
        }
        for (amount, shown) in amounts where Self.decimals(of: amount) > places {
            problems.append("\(shown) is shown, \(amount) \(product.currencyCode) is charged")
        }
        return problems.map {
            InvariantViolation(.sheetsTellTheTruth, "Apple's sheet for \(sheet.productIdentifier): \($0)")
        }
    }

    /// How many decimals `amount` is written with (a Decimal's description drops trailing zeros).
    private static func decimals(of amount: Decimal) -> Int {
        let text = "\(amount)"
        guard let point = text.firstIndex(of: ".") else { return 0 }
        return text.distance(from: point, to: text.endIndex) - 1
    }
}
