import SimKernel
import Simulation
import Testing

/// Every world action's words read back as the same action, and every action prints as the words read.
@Suite struct WorldActionTextTests {
    /// The samples of `action`'s case, and an action of the next case (nil after the last). The switch has
    /// no default, so a new case does not compile until it has samples and is linked into the chain.
    static func samples(of action: WorldAction) -> (samples: [String], next: WorldAction?) {
        switch action {
        case .advance:
            (
                [
                    "advance 500ms", "advance 3s", "advance 90m", "advance 2h", "advance 2d", "advance 1mo",
                    "advance 13mo",
                ], .renew
            )
        case .renew: (["store renew"], .expire)
        case .expire: (["store expire"], .refund)
        case .refund: (["store refund"], .revoke)
        case .revoke: (["store revoke"], .billingIssue(true))
        case .billingIssue: (["store billing-issue", "store recover"], .billingIssueWith(grace: true))
        case .billingIssueWith: (["store billing-issue grace", "store billing-issue no-grace"], .resolveInterrupted)
        case .resolveInterrupted: (["store resolve-interrupted"], .priceIncrease)
        case .priceIncrease: (["store price-increase"], .raisePrice(product: "p", price: 1))
        case .raisePrice: (["store price-increase premium.monthly 12.99"], .changePlan(.upgrade, "p"))
        case .changePlan:
            (
                ["store upgrade premium.yearly", "store downgrade basic.monthly", "store crossgrade premium.yearly"],
                .transaction(.refund, "1")
            )
        case .transaction:
            (TransactionControl.allCases.map { "store \($0.rawValue) 2000000000000001" }, .nextPurchase(.ok))
        case .nextPurchase: (NextPurchase.allCases.map { "next purchase \($0.rawValue)" }, .clearFaults("payment"))
        case .clearFaults: (["clear faults payment", "clear faults products-request"], .askToBuy(true))
        case .askToBuy: (["ask-to-buy on", "ask-to-buy off"], .parentApprove)
        case .parentApprove: (["parent approve"], .parentDecline)
        case .parentDecline: (["parent decline"], .background)
        case .background: (["background"], .foreground)
        case .foreground: (["foreground"], .restartApp)
        case .restartApp: (["restart app"], .newDevice("ipad"))
        case .newDevice: (["new device ipad"], .phone("iphone"))
        case .phone: (["phone iphone", "phone kid-iphone"], .kill)
        case .kill: (["kill"], .payments(allowed: true))
        case .payments: (["payments allowed", "payments restricted"], .readerAge(12))
        case .readerAge: (["reader-age 12", "reader-age adult"], .removeReceipt)
        case .removeReceipt: (["remove receipt"], .redeemCode("free month"))
        case .redeemCode: (["redeem code free month", "redeem code SPRING"], .familyAdd("kid@icloud.test"))
        case .familyAdd: (["family add kid@icloud.test"], .familyRemove("kid@icloud.test"))
        case .familyRemove: (["family remove kid@icloud.test"], .familySharing(true))
        case .familySharing: (["family sharing on", "family sharing off"], .storefront("GBR"))
        case .storefront: (["storefront GBR", "storefront USA"], .locale("fr_FR"))
        case .locale: (["locale fr_FR"], .latency(.fast))
        case .latency: (LatencyProfile.all.map { "latency \($0.name)" }, .inject(FaultPlan()))
        case .inject:
            (
                [
                    "inject receipts error times 1", "inject payment error:paymentInvalid times 2; backend slow always",
                    "inject payment deferred chance 0.2",
                ], .finish(.beforeServerCheck)
            )
        case .finish: (["finish before", "finish after"], nil)
        }
    }

    /// Every sample of every case, following the chain from the first case.
    static var allSamples: [String] {
        var texts: [String] = []
        var next: WorldAction? = .advance(.months(1))
        while let action = next {
            let (samples, following) = samples(of: action)
            texts += samples
            next = following
        }
        return texts
    }

    static func parse(_ text: String) throws -> WorldAction? {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        let rest = text.dropFirst(words.first?.count ?? 0).trimmingCharacters(in: .whitespaces)
        return try WorldAction.parse(words, rest: rest)
    }

    @Test(arguments: allSamples) func printingWhatWasReadGivesTheSameWordsAndTheSameAction(text: String) throws {
        let action = try #require(try Self.parse(text))
        #expect(action.text == text)
        #expect(try Self.parse(action.text) == action)
        // Listed under the case it reads as.
        #expect(Self.samples(of: action).samples.contains(text))
    }

    /// `1y` is twelve calendar months, as a tester first wrote it (it was refused); it prints as `12mo`.
    @Test func yearsAreTwelveMonthsEach() throws {
        #expect(try Self.parse("advance 2y") == .advance(.months(24)))
        #expect(try Self.parse("advance 1y")?.text == "advance 12mo")
        #expect(throws: WorldActionTextError.self) { try Self.parse("advance 11y") }
        #expect(throws: WorldActionTextError.self) { try Self.parse("advance 999999999999999999y") }
    }

    @Test func wordsNoActionStartsAreLeftToTheReader() throws {
        #expect(try Self.parse("open paywall") == nil)
        #expect(throws: WorldActionTextError.self) { try Self.parse("store refnud") }
    }

    /// A billing issue's grace period is the file's, or said: other words name the three that work (session 32).
    @Test func aBillingIssueTakesGraceOrNoGraceAndNothingElse() throws {
        #expect(try Self.parse("store billing-issue no-grace") == .billingIssueWith(grace: false))
        for text in ["store billing-issue maybe", "store billing-issue grace no-grace", "store billing-issue Grace"] {
            #expect {
                try Self.parse(text)
            } throws: { error in
                "\(error)".contains("store billing-issue grace or store billing-issue no-grace")
            }
        }
    }
}
