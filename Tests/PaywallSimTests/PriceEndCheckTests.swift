import Foundation
import SimKernel
import Testing

@testable import Simulation

/// Invariant 20's price half, judged on the store's events alone: a regular renewal charges no more than the price
/// agreed, and an end for price needs a raise above it, of the plan chosen, with no offer's period next.
@Suite struct PriceEndCheckTests {
    private let original = "2000000000000001"
    private let monthly = "com.example.monthly"

    /// From text: a float literal is not the decimal it reads as.
    private func usd(_ amount: String) -> StorePrice { StorePrice(Decimal(string: amount)!, in: "USA") }

    private func judged(_ events: [WorldEvent]) -> [String] {
        var check = PriceEndCheck()
        return events.compactMap { check.read($0, judging: true)?.detail }
    }

    private var chosenAt499: WorldEvent {
        .renewalProductChosen(originalTransactionId: original, productId: monthly, price: usd("4.99"))
    }

    private func renewed(at amount: String, offer: Bool = false, in storefront: String = "USA") -> WorldEvent {
        .renewalCharged(
            originalTransactionId: original, productId: monthly,
            price: StorePrice(Decimal(string: amount)!, in: storefront),
            offer: offer)
    }

    @Test func aRenewalAboveThePriceAgreedIsCaughtUnlessTheRaiseWasAgreedTo() {
        #expect(
            judged([chosenAt499, renewed(at: "5.99")]) == [
                "Apple renewed \(original) as \(monthly) at 5.99, but the subscriber agreed to 4.99 and never to a raise"
            ])
        let consented = WorldEvent.renewalProductChosen(
            originalTransactionId: original, productId: monthly, price: usd("5.99"))
        #expect(judged([chosenAt499, consented, renewed(at: "5.99")]) == [])
        #expect(judged([chosenAt499, renewed(at: "4.99"), renewed(at: "2.49", offer: true)]) == [])
        // A move abroad charges the new storefront's price: not a raise.
        #expect(judged([chosenAt499, renewed(at: "5.49", in: "FRA")]) == [])
    }

    @Test func anEndForPriceNeedsARaiseAboveThePriceAgreedWithNoOfferNext() {
        func ended(at amount: String, offerDue: Bool = false) -> WorldEvent {
            .endedForPrice(originalTransactionId: original, productId: monthly, price: usd(amount), offerDue: offerDue)
        }
        #expect(judged([chosenAt499, ended(at: "5.99")]) == [])
        #expect(
            judged([chosenAt499, ended(at: "4.99")]) == [
                "Apple ended \(original) for a raised price, but \(monthly) renews at 4.99, which the subscriber agreed to"
            ])
        #expect(
            judged([chosenAt499, ended(at: "5.99", offerDue: true)]) == [
                "Apple ended \(original) for a raised price of \(monthly) while an offer's period was next: the raise "
                    + "applies from the first renewal at the plan's regular price"
            ])
    }
}
