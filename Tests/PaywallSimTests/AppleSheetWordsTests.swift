import AppFlow
import SimKernel
import StoreSim
import Testing
import WhiteLabel

@testable import Simulation

/// README: Apple's sheets follow the phone's locale. Every sheet of Apple's, the payment sheet, the price-consent sheet
/// and the manage sheet, in every state its words can take, rendered in each language the store speaks, keeps no word
/// of its English text; the titles, prices, dates and Apple ID it is given aside, and Apple's brand names. The manage
/// sheet stayed English on a French phone (session 32, h13), and the payment sheet's plan-change line English in
/// Italian, Japanese and Portuguese.
@Suite struct AppleSheetWordsTests {
    static let languages = ["en", "fr", "de", "es", "it", "ja", "pt"]

    /// Words each language shares with English and rightly writes: Apple's names ("Apple-ID", "ID de Apple"), and a few
    /// words of the language's own that English writes too: "in" ("in den Einstellungen", "in questo paese"), German's
    /// "Rest" and "Region", French's "pays", Italian's "per" ("per il primo mese"), Spanish's "no" ("no se vende"),
    /// Portuguese's "for" ("quando o pagamento for aprovado").
    static let shared: Set<String> = ["apple", "app", "store", "id"]
    static let sharedIn: [String: Set<String>] = [
        "de": ["in", "rest", "region"], "fr": ["pays"], "it": ["in", "per"], "es": ["no"], "pt": ["for"],
    ]

    /// Inputs every rendering is given: their words are not the sheet's own.
    static let title = "Zyxa"
    static let otherTitle = "Zyxb"
    static let thirdTitle = "Zyxc"
    static let price = "9,99 Q"
    static let date = "2026-03-09"
    static let appleId = "reader@icloud.test"

    @Test func theStoreAndTheManageSheetSpeakTheSameLanguages() throws {
        for language in Self.languages {
            #expect(StoreWords(locale: "\(language)_XX").language == language)
        }
        let english = try manageSheetTexts("en_US")
        for language in Self.languages where language != "en" {
            #expect(try manageSheetTexts("\(language)_XX") != english, "\(language)")
        }
        // A language neither speaks is English on both.
        #expect(StoreWords(locale: "nl_NL").language == "en")
        #expect(try manageSheetTexts("nl_NL") == english)
    }

    @Test func applesPaymentAndConsentSheetsKeepNoEnglish() {
        let english = Self.vocabulary(Self.paymentSheetTexts("en"))
        for language in Self.languages where language != "en" {
            let left = Self.englishLeft(in: Self.paymentSheetTexts(language), english: english, language: language)
            #expect(left.isEmpty, "\(language): Apple's payment or consent sheet keeps English: \(left)")
        }
    }

    @Test func applesManageSheetKeepsNoEnglish() throws {
        let english = Self.vocabulary(try manageSheetTexts("en_US"))
        for language in Self.languages where language != "en" {
            let texts = try manageSheetTexts("\(language)_XX")
            let left = Self.englishLeft(in: texts, english: english, language: language)
            #expect(left.isEmpty, "\(language): Apple's manage sheet keeps English: \(left)")
        }
    }

    /// The manage sheet judged in each language (`ManageSheetTruth.saysOtherwise`, session 32): every state's rows say
    /// what the English ones say, each language tells apart every two sheets English tells apart, and a translated row
    /// that drops a date, says another one, or a button that reads as another, is caught.
    @Test func theManageSheetIsJudgedInEveryLanguage() throws {
        let english = try manageSheets("en_US").map { $0.screen.rows.map(\.text) }
        for language in Self.languages where language != "en" {
            let states = try manageSheets("\(language)_XX")
            for state in states {
                #expect(ManageSheetTruth.saysOtherwise(state) == nil, "\(language)")
            }
            let texts = states.map { $0.screen.rows.map(\.text) }
            for i in texts.indices {
                for j in texts.indices where i < j && english[i] != english[j] {
                    #expect(texts[i] != texts[j], "\(language) reads alike: \(english[i]) and \(english[j])")
                }
            }
            let renewing = states[2]
            var inEnglish = renewing
            inEnglish.locale = "en_US"
            let facts = [Self.title, Self.otherTitle, Self.thirdTitle, Self.price, Self.date, "2026-03-10"]
            let rows = renewing.manageSheetRows
            let status = try #require(rows.firstIndex { $0.text.contains(Self.date) })
            var otherDate = rows
            otherDate[status].text = otherDate[status].text.replacing(Self.date, with: "2026-03-10")
            var noDate = rows
            noDate[status].text = noDate[status].text.replacing(Self.date, with: "")
            let cancel = try #require(rows.firstIndex { $0.choice == .setAutoRenew(false, productId: "a") })
            var swapped = rows
            swapped[cancel].choice = rows.last?.choice
            for lie in [otherDate, noDate, swapped] {
                #expect(
                    ManageSheetTruth.saysOtherwise(
                        lie, english: inEnglish.manageSheetRows, facts: facts, locale: language) != nil, "\(language)")
            }
        }
    }

    /// The words a rendering shares with English's, the inputs' and the shared ones aside.
    static func englishLeft(in texts: [String], english: Set<String>, language: String) -> [String: String] {
        var left: [String: String] = [:]
        for text in texts {
            for word in words(text) where english.contains(word) && !(sharedIn[language] ?? []).contains(word) {
                left[word] = text
            }
        }
        return left
    }

    /// English's own words in its renderings: not the inputs', not Apple's names; two letters or more.
    static func vocabulary(_ texts: [String]) -> Set<String> {
        let inputs = [title, otherTitle, thirdTitle, price, date, appleId, "Daily News"].flatMap(words)
        return Set(texts.flatMap(words)).subtracting(inputs).subtracting(shared)
    }

    static func words(_ text: String) -> [String] {
        text.split { !$0.isLetter }.map { $0.lowercased() }.filter { $0.count >= 2 }
    }

    /// What the store's words put on its payment and price-consent sheets, for every offer, period and change.
    static func paymentSheetTexts(_ language: String) -> [String] {
        let words = StoreWords(locale: "\(language)_XX")
        var texts = [
            words.sheetTerms(price: price, period: nil, offer: ""), words.subscribe, words.cancel,
            words.appleIdLine(appleId), words.replaces(otherTitle, on: nil), words.replaces(otherTitle, on: date),
            words.keeps(title, instead: otherTitle, on: date), words.consent.heading.replacing("{title}", with: title),
            words.consent.terms, words.consent.termsAfterOffer, words.consent.agree, words.consent.notNow,
        ]
        let modes: [ProductDiscount.PaymentMode] = [.freeTrial, .payUpFront, .payAsYouGo]
        for unit in CalendarPeriod.Unit.allCases {
            for value in [1, 3] {
                let period = CalendarPeriod(unit: unit, value: value)
                texts += [
                    words.sheetTerms(price: price, period: period, offer: ""), words.price(price, per: period),
                    "\(price) → \(price) \(words.perPeriod(period))",
                ]
                for mode in modes {
                    for count in [1, 2] {
                        let offer = words.offerTerms(mode: mode, price: price, period: period, count: count)
                        texts.append(words.sheetTerms(price: price, period: period, offer: offer))
                    }
                }
            }
        }
        return texts
    }

    /// Every row of Apple's manage sheet, in each of its states, loading and empty too, with one subscription and
    /// with two (whose buttons name theirs).
    func manageSheetTexts(_ locale: String) throws -> [String] {
        try manageSheets(locale).flatMap { $0.screen.rows.map(\.text) }
    }

    /// The phone on Apple's manage sheet in each state `manageSheetTexts` reads: loading, empty, one subscription in each
    /// state (the third renewing, its plans switched to at the renewal), then two.
    func manageSheets(_ locale: String) throws -> [AppState] {
        var state = AppState(app: try TestSupport.demoConfig().app)
        state.locale = locale
        state.stack = [.feed, .profile, .manageSubscription]
        state.selections = [0, 0, 0]
        let expires: Int64 = 1_773_014_400_000
        func plans(startsNow: Bool) -> [ManagedPlan] {
            [
                ManagedPlan(productId: "a", title: Self.title, localizedPrice: Self.price, terms: Self.price),
                ManagedPlan(
                    productId: "b", title: Self.otherTitle, localizedPrice: Self.price, terms: Self.price,
                    startsNow: startsNow),
                ManagedPlan(productId: "c", title: Self.thirdTitle, localizedPrice: Self.price, terms: Self.price),
            ]
        }
        func subscription(
            autoRenew: Bool = true, grace: Bool = false, consent: Bool = false, into: String? = nil,
            retry: Bool = false, notSold: Bool = false, startsNow: Bool = false, trial: Bool = false
        ) -> ManagedSubscription {
            var shown = ManagedSubscription(
                productId: "a", title: Self.title, expires: expires, willAutoRenew: autoRenew,
                graceExpires: grace ? expires + 86_400_000 : nil, waitsForPriceConsent: consent, renewsInto: into,
                renewsIntoTitle: into.map { _ in Self.otherTitle })
            shown.inBillingRetry = retry
            shown.renewalNotSold = notSold
            shown.inFreeTrial = trial
            shown.plans = plans(startsNow: startsNow)
            return shown
        }
        let states = [
            subscription(), subscription(startsNow: true), subscription(autoRenew: false),
            subscription(into: "b", retry: true), subscription(retry: true),
            subscription(autoRenew: false, grace: true), subscription(grace: true, into: "b"),
            subscription(notSold: true), subscription(into: "b"), subscription(consent: true, into: "b"),
            subscription(consent: true), subscription(trial: true), subscription(autoRenew: false, trial: true),
        ]
        var sheets: [[ManagedSubscription]?] = [nil, []] + states.map { [$0] }
        for first in states {
            var second = subscription(autoRenew: !first.willAutoRenew, into: "b")
            second.plans = plans(startsNow: true)
            sheets.append([first, second])
        }
        return sheets.map { sheet in
            state.manageSheet = sheet
            #expect(state.screen.id == .manageSubscription)
            return state
        }
    }
}
