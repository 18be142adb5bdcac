import WhiteLabel

/// The screens of the app, named as scenarios, recordings and tests name them.
public enum ScreenID: String, CaseIterable, Sendable {
    case feed
    case content
    case paywall
    case parentalGate = "parental-gate"
    case appStoreSheet = "app-store-sheet"
    case login
    case signup
    case transferPrompt = "transfer-prompt"
    case accountRequired = "account-required"
    case profile
    case manageSubscription = "manage-subscription"
    case alert
}

/// What is on the phone's screen, with no terminal in it: the terminal paints it, the text
/// renderer prints it, tests read it.
public struct ScreenModel: Equatable, Sendable {
    public var id: ScreenID
    /// The navigation bar's title.
    public var title: String
    public var rows: [Row]
    /// The index in `rows` of the highlighted row, if any.
    public var selection: Int?
    /// What the app waits for, shown with a spinner: "Waiting for the App Store".
    public var waiting: String?
    /// A message over the screen; while it is up it takes the keys.
    public var alert: Alert?
    /// The keys that work here, for the bottom bar.
    public var keys: [KeyHint]

    public init(
        id: ScreenID, title: String, rows: [Row], selection: Int? = nil, waiting: String? = nil,
        alert: Alert? = nil, keys: [KeyHint] = []
    ) {
        self.id = id
        self.title = title
        self.rows = rows
        self.selection = selection
        self.waiting = waiting
        self.alert = alert
        self.keys = keys
    }

    /// The identifier a scenario checks: `alert` while an alert is up.
    public var visibleID: ScreenID { alert == nil ? id : .alert }

    /// The choices of the selectable rows, top to bottom: the highlight's index is one of these.
    public var choices: [Choice] { rows.compactMap(\.choice) }

    /// The index in `rows` of the text field `field`.
    public func row(editing field: TextField) -> Int? { rows.firstIndex { $0.choice == .edit(field) } }

    /// Whether the highlighted row is a text field: typed characters then go into it, not to key bindings.
    public var isEditingText: Bool { alert == nil && selection.map { rows[$0].isField } == true }

    /// Whether the highlighted field takes only digits (the parental gate's answer is a number): every other key keeps
    /// its meaning there, so the key bar keeps "? keys · q quit" (the gate at 80 columns dropped them, session 35).
    public var isEditingDigits: Bool {
        isEditingText && selection.map { rows[$0].choice == .edit(.gateAnswer) } == true
    }

    /// Whether typed letters go into the highlighted field (log in, sign up): `?`, `q` and the other letters too.
    public var isTypingLetters: Bool { isEditingText && !isEditingDigits }
}

/// One line (or wrapped paragraph) of a screen.
public struct Row: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// A heading, in the accent color.
        case heading
        /// Body text, wrapped to the screen's width.
        case text
        /// Secondary text.
        case muted
        /// A row the reader can choose with Enter.
        case choice
        /// A button, drawn as `[ Label ]`.
        case button
        /// An advertisement.
        case ad
        /// An empty line.
        case spacer
        /// A text field: `text` is its label, `value` what was typed; a masked field shows dots.
        case field(masked: Bool)
        /// A warning, e.g. a billing issue.
        case banner
    }

    public var kind: Kind
    public var text: String
    /// A marker drawn at the row's right end, e.g. "locked".
    public var badge: Badge?
    /// What was typed into a field.
    public var value: String
    /// What choosing the row does; nil for a row the reader cannot choose.
    public var choice: Choice?

    public init(_ kind: Kind, _ text: String = "", badge: Badge? = nil, value: String = "", choice: Choice? = nil) {
        self.kind = kind
        self.text = text
        self.badge = badge
        self.value = value
        self.choice = choice
    }

    /// A row the highlight stops on: one that does something.
    public var isSelectable: Bool { choice != nil }

    public var isField: Bool { if case .field = kind { true } else { false } }
}

/// A short marker at the end of a row.
public struct Badge: Equatable, Sendable {
    public var text: String
    public var role: Theme.Role

    public static let locked = Badge(text: "[locked]", role: .locked)
    public static let unlocked = Badge(text: "[open]", role: .success)
}

/// A message over any screen, dismissed with Enter or Esc. Codable: one telling a charge is kept on the phone until the
/// reader dismisses it (`ChargeAlertsUnseen`).
public struct Alert: Codable, Equatable, Sendable {
    /// What an alert says of the reader's money, where it says anything.
    public enum Charge: Codable, Equatable, Sendable {
        /// Nothing was charged, or nothing yet ("You were not charged", "Waiting for approval").
        case nothing
        /// Apple charged the Apple ID.
        case made
        /// Apple started a free trial: a new transaction that charged nothing ("Free trial started"), told in the
        /// trial's words, never a charge's (session 44's walk, hand-01).
        case trialStarted

        /// The alert tells a new transaction of Apple's, whatever it cost: what invariant 11 takes as its telling, and
        /// what takes "Waiting for approval" and "You were not charged" off the screen.
        public var tellsTransaction: Bool { self == .made || self == .trialStarted }
    }

    public var title: String
    public var message: String
    /// An alert saying a charge was made takes every one saying none was off the screen (`AppState.tell`).
    public var charge: Charge? = nil
    /// The product whose payment it speaks of, where it speaks of one: "Waiting for approval" of a monthly plan is
    /// not made untrue by a code for the yearly one redeemed on the App Store meanwhile.
    public var productId: String? = nil
    /// The transaction a charge told of ("Purchase complete", "Subscription active again") was, when the app knew it:
    /// invariant 9 holds "Purchase complete" to a purchase, never a renewal (`PurchaseToldCheck`, session 35).
    public var transactionId: String? = nil
    /// The alert says a purchase request waits for a parent, or that the parent declined it: the decline takes the
    /// waiting ones off the screen (`AppState.tell`), as a charge does.
    public var parentRequest: ParentRequest? = nil

    public enum ParentRequest: Codable, Equatable, Sendable {
        case waiting
        case declined
    }

    /// The words a charge was first told in, kept while it is told again as not active (`endedSinceTold`): told again
    /// once Apple entitles it again, as "Your subscription is active" is true again (found-by-hand/521).
    public var firstTold: Words? = nil

    public struct Words: Codable, Equatable, Sendable {
        public var title: String
        public var message: String
    }

    /// What must stay true for the alert to say what is: "Purchase in progress" while a purchase runs, "Purchases are
    /// off" while the phone cannot pay. Either stayed up after it ended (session 28); `AppState.takeOffUntrue`.
    public var holdsWhile: Holds? = nil

    public enum Holds: Codable, Equatable, Sendable {
        case purchaseRunning
        case paymentsOff
    }

    /// The title of the alert telling a purchase Apple charged that nobody on screen waited for.
    public static let purchaseComplete = "Purchase complete"

    /// The keys an alert takes, whatever the screen under it: OK is its one button.
    public static let keys = [KeyHint("Enter", "OK"), KeyHint("Esc", "close")]

    public init(title: String, message: String, charge: Charge? = nil, productId: String? = nil) {
        self.title = title
        self.message = message
        self.charge = charge
        self.productId = productId
    }
}

/// A key and what it does here, for the bottom bar and the `?` help.
public struct KeyHint: Equatable, Sendable {
    public var key: String
    public var action: String

    public init(_ key: String, _ action: String) {
        self.key = key
        self.action = action
    }
}
