import FoundationEssentials
import SimKernel
import Subscriptions
import WhiteLabel

/// Everything the app's screens show, and nothing the store or backend own. Its stored fields are `AppStateFields`'s,
/// read and changed through `subscript(dynamicMember:)` as if they were its own (`state.stack`, `state.alert = nil`).
@dynamicMemberLookup
public struct AppState: Equatable, Sendable {
    /// A place in the app's navigation.
    public enum Route: Equatable, Sendable {
        case feed
        case content(id: String)
        /// The paywall, opened from a piece of content (or from nowhere).
        case paywall(fromContent: String?)
        case profile
        case login(AccountForm.Purpose)
        case signup(AccountForm.Purpose)
        case transferPrompt(TransferPrompt)
        /// "Account required after subscribing": log in or sign up before going on.
        case accountRequired
        case manageSubscription
        /// The parental gate before Apple's sheet in a kids app or for an under-age reader: the payment sheet of a
        /// purchase, or the manage sheet, whose plan switch charges (`ParentalGate.purpose`).
        case parentalGate
    }

    /// The full version of a piece of content, as far as it has come.
    public enum FullContent: Equatable, Sendable {
        case loading
        case loaded(String)
        case failed(String)
    }

    /// The fields, shared by copies until one is changed: the phone's checks and judgements read the state (a class's
    /// stored property, copied whole to be handed over) many times a step, and a copy is now one retain, not one per field.
    @usableFromInline var box: AppStateBox

    public init(app: AppPart) {
        box = AppStateBox(AppStateFields(app: app))
    }

    /// A stored field, read from the box; changed in it once no other copy shares it.
    @inlinable public subscript<Value>(dynamicMember field: WritableKeyPath<AppStateFields, Value>) -> Value {
        get { box.fields[keyPath: field] }
        _modify {
            makeUnique()
            yield &box.fields[keyPath: field]
        }
    }

    /// Before a change: a box another copy shares is copied first.
    @inlinable mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&box) { box = AppStateBox(box.fields) }
    }

    public var route: Route { self.stack[self.stack.count - 1] }

    /// The owner's paywall words in the phone's language.
    public var paywallText: PaywallText { self.app.paywall.localized(for: self.locale) }
    public var selection: Int {
        get { self.selections[self.selections.count - 1] }
        set { self.selections[self.selections.count - 1] = newValue }
    }

    /// The highlighted one of a screen's `count` choices: the first when the kept index is past them (the
    /// screen changed under it: after signing up, the profile has fewer choices than the guest's had); nil
    /// with none. The screen highlights it and Enter chooses it, so the two never disagree.
    public func highlighted(among count: Int) -> Int? { Self.highlighted(selection, among: count) }

    /// `highlighted(among:)` for a kept index `selection`.
    public static func highlighted(_ selection: Int, among count: Int) -> Int? {
        count == 0 ? nil : selection < count ? selection : 0
    }

    public func item(_ id: String) -> ContentItem? { self.app.content.first { $0.id == id } }

    /// Ads show unless the owner hides them for subscribers and this reader is one.
    public var showsAds: Bool { self.app.ads.enabled && !(self.app.ads.hideForSubscribers && self.access.isSubscriber) }

    /// The subscriptions the backend last listed for the reader shown: none for another identity (listed before a
    /// log-out or a sign-in), so the profile never shows one reader's plan to another.
    public var subscriptions: [SubscriptionSummary] {
        self.subscriptionList?.identity == self.access.identity ? self.subscriptionList?.subscriptions ?? [] : []
    }

    /// What the profile shows: the reader's subscriptions and, signed in, the phone's own not listed for the account.
    /// Signed up over a guest whose renewal Apple retries, the profile lost its plan line, its billing warning and
    /// "Manage my subscription", while Apple would still charge on recovery (session 27).
    public var profileSubscriptions: [SubscriptionSummary] {
        guard isSignedIn, let phone = phoneGuestsList?.subscriptions else { return subscriptions }
        let listed = Set(subscriptions.compactMap(\.originalTransactionId))
        return subscriptions + phone.filter { $0.originalTransactionId.map { !listed.contains($0) } ?? true }
    }

    /// The phone's own list while it is of the guest the phone holds now: a guest moved to an account is forgotten, and
    /// its last list, kept across a log-out and the next sign-in, showed its plan ("renewal failed") on the profile of
    /// an account that never held it (long 2413).
    var phoneGuestsList: SubscriptionList? {
        guard let list = self.phoneSubscriptionList else { return nil }
        return self.keepsGoneGuestsList || list.identity == self.access.phoneGuestIdentity ? list : nil
    }

    /// A sign-in or a log-out keeps the phone's guest beside (or instead of) the account: the guest's list the server
    /// last gave stays the phone's, so the profile on screen keeps its plan line, a renewal Apple still retries and
    /// "Manage my subscription" until the server is asked again. Signed in over a guest, the profile dropped them
    /// until it was opened again (session 36).
    mutating func keepListsAcross(identityChangeTo next: AccessSnapshot.Identity) {
        let shown = self.access.identity
        guard shown != next else { return }
        switch (shown, next) {
        case (.anonymous, .account):
            if let list = self.subscriptionList, list.identity == shown { self.phoneSubscriptionList = list }
        case (.account, .anonymous):
            if let list = self.phoneSubscriptionList, list.identity == next { self.subscriptionList = list }
        default:
            break
        }
    }

    /// The subscription groups of the plans the backend lists as running for the reader: a plan of one would change
    /// that subscription, not bring another level. The server names each plan's group: a phone whose every catalog
    /// answer since launch left the plan held out sold its upgrade (long fuzz seed 1204). Signed in, the phone's own
    /// subscription not moved to the account is the reader's too, as the profile lists it: the paywall sold its group
    /// again to a reader who had said "Not now" to the move (h14, session 33).
    public var heldGroups: Set<String> {
        let groups = self.productGroups
        return Set(
            profileSubscriptions.filter(\.active).compactMap { $0.subscriptionGroupIdentifier ?? groups[$0.productId] })
    }

    /// The paywall's offers for this reader: a subscriber's are the groups they do not hold (a file with two groups
    /// sold the second to nobody holding the first, session 27); nil while the store's are loading.
    public var paywallOffers: [Offer]? {
        guard self.access.isSubscriber, let offers = self.offers else { return self.offers }
        let held = heldGroups
        return offers.filter { $0.product.subscriptionGroupIdentifier.map { !held.contains($0) } ?? true }
    }

    /// Shows `told`, or, with an alert up, shows it next (once: the same words twice in a row are one message).
    /// A charge told takes off every alert still saying nothing was charged of its product: a held payment charged
    /// while "You were not charged" or "Waiting for approval" was up left the reader reading it over the unlocked
    /// article (session 26).
    public mutating func tell(_ told: Alert) {
        if told.charge?.tellsTransaction == true {
            // Of the same payment's product, where both name one: another plan's charge leaves a request waiting.
            let denied = { (other: Alert) in
                other.charge == .nothing
                    && (other.productId == nil || told.productId == nil || other.productId == told.productId)
            }
            self.alertsWaiting.removeAll(where: denied)
            if let shown = self.alert, denied(shown) { dismissAlert() }
        }
        // A decline told takes off "Waiting for approval": it said the purchase goes through once a parent approves
        // (session 27).
        if told.parentRequest == .declined { takeOffParentWaits() }
        // Apple's sheet is the system's, over the app: an alert told under it waits there (`sheetMoved`).
        guard let shown = self.alert else {
            if self.paymentSheet == nil { return self.alert = told }
            if self.alertsWaiting.last != told { self.alertsWaiting.append(told) }
            return
        }
        if shown != told && self.alertsWaiting.last != told { self.alertsWaiting.append(told) }
    }

    /// Apple's sheet came up or went (`paymentSheet` was `before`): the app's alert up goes beneath it, first of
    /// those waiting, and is back once the sheet closes. Drawn over the price-consent sheet, "Purchase complete" took
    /// the Enter and Esc meant for Apple's question (session 32, h13 02).
    mutating func sheetMoved(from before: PaymentSheetInfo?) {
        if self.paymentSheet != nil, let shown = self.alert {
            self.alertsWaiting.insert(shown, at: 0)
            self.alert = nil
        } else if self.paymentSheet == nil, before != nil, self.alert == nil, !self.alertsWaiting.isEmpty {
            dismissAlert()
        }
    }

    /// A parent answered: the alerts saying a request waits come off, shown or in turn.
    mutating func takeOffParentWaits() {
        self.alertsWaiting.removeAll { $0.parentRequest == .waiting }
        if self.alert?.parentRequest == .waiting { dismissAlert() }
    }

    /// The alerts whose words stopped being true come off, shown or in turn: "Purchase in progress" once no purchase
    /// runs, "Purchases are off" once the phone can pay (`paymentsAllowed`: the app read so). They stayed up over the
    /// article the purchase unlocked (session 28).
    mutating func takeOffUntrue(paymentsAllowed: Bool = false) {
        let running = self.purchase != nil
        let untrue = { (alert: Alert) in
            switch alert.holdsWhile {
            case .purchaseRunning: !running
            case .paymentsOff: paymentsAllowed
            case nil: false
            }
        }
        self.alertsWaiting.removeAll(where: untrue)
        if let shown = self.alert, untrue(shown) { dismissAlert() }
    }

    /// The reader dismissed the alert: the next one told meanwhile, if any.
    mutating func dismissAlert() {
        self.alert = self.alertsWaiting.isEmpty ? nil : self.alertsWaiting.removeFirst()
    }

    public var isSignedIn: Bool { if case .account = self.access.identity { true } else { false } }

    public static func == (lhs: AppState, rhs: AppState) -> Bool {
        lhs.app == rhs.app && lhs.locale == rhs.locale && lhs.stack == rhs.stack && lhs.selections == rhs.selections
            && lhs.offers == rhs.offers && lhs.notSoldHere == rhs.notSoldHere
            && lhs.access == rhs.access && lhs.purchase?.offerId == rhs.purchase?.offerId
            && lhs.purchase?.stage == rhs.purchase?.stage && lhs.paymentSheet == rhs.paymentSheet
            && lhs.alert == rhs.alert && lhs.alertsWaiting == rhs.alertsWaiting && lhs.fullContent == rhs.fullContent
            && lhs.form == rhs.form
            && lhs.operation == rhs.operation && lhs.subscriptionList == rhs.subscriptionList
            && lhs.phoneSubscriptionList == rhs.phoneSubscriptionList
            && lhs.manageSheet == rhs.manageSheet
            && lhs.pendingSubscribe == rhs.pendingSubscribe && lhs.gate == rhs.gate
            && lhs.transferAskedFor == rhs.transferAskedFor && lhs.restoreMoves == rhs.restoreMoves
            && lhs.clock == rhs.clock
    }
}

/// A subscription on Apple's manage sheet: the Apple ID's own, in the App Store's words, not the backend's.
public struct ManagedSubscription: Equatable, Sendable {
    public let productId: String
    public let title: String
    /// Virtual milliseconds since the epoch.
    public let expires: Int64
    public let willAutoRenew: Bool
    /// Apple could not renew it at `expires`: access lasts to this instant (virtual milliseconds) while Apple retries.
    /// nil outside a grace period.
    public let graceExpires: Int64?
    /// Past its grace, Apple retries the payment: no access now, a charge when the payment method works again.
    public var inBillingRetry = false
    /// The plans of its group the App Store sells here, itself included, at its price now.
    public var plans: [ManagedPlan] = []
    /// It renews as a plan this storefront does not sell: Apple ends it at `expires`.
    public var renewalNotSold = false
    /// A price increase waits for the reader's consent: it renews at `expires` only if they agree.
    public let waitsForPriceConsent: Bool
    /// The plan it switches to at `expires` (a change already made) and its title; nil when it renews as it is.
    public let renewsInto: String?
    public let renewsIntoTitle: String?
    /// A family member's purchase shared with the Apple ID: listed, nothing to press (its purchaser manages it).
    public var sharedByFamily = false
    /// Its period now is a free trial: `expires` is when it ends and the plan's price is first charged.
    public var inFreeTrial = false

    public init(
        productId: String, title: String, expires: Int64, willAutoRenew: Bool, graceExpires: Int64? = nil,
        waitsForPriceConsent: Bool = false, renewsInto: String? = nil, renewsIntoTitle: String? = nil
    ) {
        self.renewsInto = renewsInto
        self.renewsIntoTitle = renewsIntoTitle
        self.productId = productId
        self.title = title
        self.expires = expires
        self.willAutoRenew = willAutoRenew
        self.graceExpires = graceExpires
        self.waitsForPriceConsent = waitsForPriceConsent
    }
}

/// A plan of a subscription's group on Apple's manage sheet, in the App Store's words and price.
public struct ManagedPlan: Equatable, Sendable {
    public let productId: String
    public let title: String
    public let localizedPrice: String
    /// The price with its period, in the store's words: "$59.99 per year".
    public var terms: String
    /// Chosen, it takes effect now; else at the subscription's next renewal.
    public var startsNow: Bool

    public init(productId: String, title: String, localizedPrice: String, terms: String? = nil, startsNow: Bool = true)
    {
        self.productId = productId
        self.title = title
        self.localizedPrice = localizedPrice
        self.terms = terms ?? localizedPrice
        self.startsNow = startsNow
    }
}

/// A Subscribe that waits for the reader's access to be known, so no paywall is offered to a subscriber, and a
/// subscriber's for the server's list of their subscriptions, so the paywall offers only the groups they lack, and for
/// the store's catalog, which alone tells the group of a plan they hold.
public struct PendingSubscribe: Equatable, Sendable {
    public let fromContent: String?
    /// How deep the stack was when the reader tapped: a Back below it leaves the screen the tap was made on, and drops
    /// the tap (h1 found it firing later, pushing the paywall or profile over the feed the reader went back to).
    public let depth: Int
    public var awaitsList = false
    public var awaitsCatalog = false
}

/// The email and password a reader types to log in or sign up.
public struct AccountForm: Equatable, Sendable {
    /// Why the form is open: on its own, or because the app requires an account after subscribing.
    public enum Purpose: Equatable, Sendable {
        case plain
        case accountRequired
    }

    public var email = ""
    public var password = ""
    /// The email and password this sign-up form sent, while their answer is on its way (nil: none is). The same pressed
    /// again waits for that answer, as a real app's button is disabled: a double Enter sent the sign-up twice, and the
    /// second's "email taken" won over the first's account (session 38). Other words typed make another request, which
    /// the reader may send: the app keeps the latest sign-in's answer. (A log-in sent twice is one request to the
    /// reader, answered once: `SameLogIns`.)
    public var sent: Sent?

    /// What a form sent: its fields as they were.
    public struct Sent: Equatable, Sendable {
        public let email: String
        public let password: String
    }

    public init() {}

    /// Whether the form's button would send again what is on its way: it is busy, and pressing it does nothing.
    public var awaitsAnswer: Bool { sent == Sent(email: email, password: password) }
}

/// A text field of the app's forms: characters typed go into the highlighted one.
public enum TextField: Equatable, Sendable {
    case email
    case password
    case gateAnswer
}

/// A grown-ups-only question before a kids app hands over to Apple's sheet.
public struct ParentalGate: Equatable, Sendable {
    /// The factors of the multiplication asked: a product of two of them is at least 36, so an answer below that
    /// (a scenario's `answer gate 12`) is wrong whatever the question.
    static let factors: ClosedRange<UInt64> = 6...12

    /// Which of Apple's sheets a right answer opens. The manage sheet is behind the gate too: a switch to a higher
    /// plan there charges at once (seed 001: the gate stays "close to the operation that can spend money").
    public enum Purpose: Equatable, Sendable {
        case purchase(offerId: String)
        case manageSubscription
    }

    public let purpose: Purpose
    /// "What is A × B?", drawn from the world's seeded generator (`AppState.gateDraws`): a new one each time the gate
    /// shows and after each wrong answer, never the one asked just before (the same "7 × 8" every time was answered
    /// by a child who had watched once, session 27).
    public private(set) var question: String
    public var answer = ""

    /// A gate for `purpose` asking a question drawn from `draws`, not `previous`.
    public init(purpose: Purpose, draws: inout SeededGenerator, previous: String?) {
        self.purpose = purpose
        question = Self.draw(&draws, not: previous)
    }

    public init(offerId: String, draws: inout SeededGenerator, previous: String?) {
        self.init(purpose: .purchase(offerId: offerId), draws: &draws, previous: previous)
    }

    /// A wrong answer: the field emptied and another question, so guessing one by one does not work.
    mutating func askAnother(draws: inout SeededGenerator) {
        question = Self.draw(&draws, not: question)
        answer = ""
    }

    private static func draw(_ draws: inout SeededGenerator, not previous: String?) -> String {
        let span = factors.upperBound - factors.lowerBound + 1
        while true {
            let (a, b) = (factors.lowerBound + draws.next() % span, factors.lowerBound + draws.next() % span)
            let question = "What is \(a) × \(b)?"
            if question != previous { return question }
        }
    }

    /// The answer to the "What is A × B?" in `text` (the question, or a row showing it), nil for text asking none:
    /// what a check, a walk or a scenario holds a reader's answer to, rather than to the app's own judgement of it.
    public static func answer(to text: String) -> String? {
        guard let start = text.firstRange(of: "What is ")?.upperBound,
            let end = text[start...].firstIndex(of: "?")
        else { return nil }
        let factors = text[start..<end].split(separator: " × ").compactMap { Int($0) }
        return factors.count == 2 ? String(factors[0] * factors[1]) : nil
    }

    public var isAnswered: Bool { answer.trimmingSpaces() == Self.answer(to: question) }
}

/// What a transfer prompt asks.
public enum TransferPrompt: Equatable, Sendable {
    /// After logging in: move this phone's anonymous subscription to the account?
    case anonymousToAccount
    /// A restore found a subscription linked to another account: move it here?
    case fromAnotherAccount
    /// A purchase found the Apple ID's subscription held by someone else (another account, or a guest on
    /// another phone): move it here?
    case heldElsewhere
}

/// Apple's payment sheet as the app's screen shows it; the system, not the app, owns it.
public struct PaymentSheetInfo: Equatable, Sendable {
    public let appleId: String
    public let productTitle: String
    public let price: String
    public let terms: String
    /// The sheet asks to agree to a higher price, not to pay.
    public let isPriceConsent: Bool
    /// The sheet's buttons as the store words them in the device's language; English when nil.
    public var confirmLabel: String? = nil
    public var cancelLabel: String? = nil
    /// Who pays, as the store words it in the device's language; "Apple ID: …" when nil.
    public var appleIdLine: String? = nil

    public init(appleId: String, productTitle: String, price: String, terms: String, isPriceConsent: Bool = false) {
        self.appleId = appleId
        self.productTitle = productTitle
        self.price = price
        self.terms = terms
        self.isPriceConsent = isPriceConsent
    }
}
