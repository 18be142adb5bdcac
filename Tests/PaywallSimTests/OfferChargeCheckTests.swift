import Foundation
import SimKernel
import Testing

@testable import Simulation

/// Invariant 13 at the charge, judged on the store's events alone: a payment confirmed on Apple's sheet at a
/// promotional offer's price is charged at that price, or not at all.
@Suite struct OfferChargeCheckTests {
    private let monthly = "com.example.monthly"
    private let offer = "come-back"

    /// From text: a float literal is not the decimal it reads as.
    private func price(_ amount: String, in storefront: String = "USA") -> StorePrice {
        StorePrice(Decimal(string: amount)!, in: storefront)
    }

    private func judged(_ events: [WorldEvent]) -> [String] {
        var check = OfferChargeCheck()
        return events.compactMap { check.read($0, judging: true)?.detail }
    }

    private var confirmedAt199: WorldEvent {
        .offerPaymentConfirmed(payment: 1, productId: monthly, offerId: offer, offerType: 2, price: price("1.99"))
    }

    private func charged(_ amount: String, promotional: Bool = true, in storefront: String = "USA", payment: Int = 1)
        -> WorldEvent
    {
        .confirmedPaymentCharged(
            payment: payment, transactionId: "2000000000000002", price: price(amount, in: storefront),
            offerType: promotional ? 2 : nil)
    }

    @Test func aChargeWithoutTheOfferConfirmedIsCaught() {
        #expect(
            judged([confirmedAt199, charged("4.99", promotional: false)]) == [
                "Apple's sheet confirmed \(monthly) with the offer \(offer) at 1.99; transaction 2000000000000002 "
                    + "charged 4.99 without it"
            ])
        #expect(judged([confirmedAt199, charged("1.99")]) == [])
    }

    @Test func anotherPriceIsCaughtInTheStorefrontOfTheSheetOnly() {
        #expect(
            judged([confirmedAt199, charged("2.49")]) == [
                "Apple's sheet confirmed \(monthly) with the offer \(offer) at 1.99; transaction 2000000000000002 "
                    + "charged 2.49"
            ])
        // Settled after a move abroad: charged in euros, the offer kept.
        #expect(judged([confirmedAt199, charged("1.99", in: "FRA")]) == [])
    }

    /// A payment confirmed without an offer, or a charge of another payment, is not judged; nor is a payment charged
    /// once judged again.
    @Test func onlyThePaymentConfirmedWithTheOfferIsJudgedOnce() {
        #expect(judged([confirmedAt199, charged("4.99", promotional: false, payment: 2)]) == [])
        #expect(judged([confirmedAt199, charged("1.99"), charged("4.99", promotional: false)]) == [])
    }

    /// A sheet that said "Free for 1 week" charged the plan's full price at once: a price never shown (session 26).
    @Test func aTrialConfirmedIsChargedAsATrialOrNotAtAll() {
        let trial = WorldEvent.offerPaymentConfirmed(
            payment: 1, productId: monthly, offerId: "introductory", offerType: 1, price: price("0"))
        #expect(
            judged([trial, charged("59.99", promotional: false)]) == [
                "Apple's sheet confirmed \(monthly) with the offer introductory at 0; transaction 2000000000000002 "
                    + "charged 59.99 without it"
            ])
        #expect(
            judged([
                trial,
                .confirmedPaymentCharged(
                    payment: 1, transactionId: "2000000000000002", price: price("0"), offerType: 1),
            ]) == [])
    }
}
