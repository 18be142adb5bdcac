import AppFlow
import SimKernel
import Simulation
import Subscriptions
import WhiteLabel

/// One scenario file, parsed: its table texts and its steps in order.
public struct Scenario: Equatable, Sendable {
    public let file: String
    /// `title`: what happens, for the markdown table.
    public var title: String?
    /// `sees`: what the reader should see, for the markdown table.
    public var sees: String?
    public var steps: [ScenarioStep]
    /// `vary KEY=V1,V2`: the worlds `compare` runs this scenario in (`play` compares them too).
    public var variation: Variation?
    /// `expect diverge [at STEP]`: the worlds must differ somewhere (first at that step).
    public var divergence: DivergenceExpectation?

    public init(file: String, title: String? = nil, sees: String? = nil, steps: [ScenarioStep] = []) {
        self.file = file
        self.title = title
        self.sees = sees
        self.steps = steps
    }

    /// Whether only `compare` can run it: it varies worlds, expects them to diverge, or has `when` steps.
    public var needsComparison: Bool {
        variation != nil || divergence != nil || steps.contains { $0.condition != nil }
    }

    /// The name the reports use: the title, else the file's name without its folder and extension.
    public var name: String {
        if let title { return title }
        let base = file.split(separator: "/").last.map(String.init) ?? file
        return base.hasSuffix(".scenario") ? String(base.dropLast(".scenario".count)) : base
    }
}

/// One line of a scenario: where it is, as written, and what it means.
public struct ScenarioStep: Equatable, Sendable {
    public let line: Int
    /// The line as written, without its comment.
    public let text: String
    public let kind: StepKind
    /// `try STEP`: an action the screen may not allow; if it cannot be done, the run goes on (the
    /// fuzzer writes the steps a random session only attempted this way, for what they did on the way).
    public let mayFail: Bool
    /// False for `without waiting STEP`: the next step comes at once, while answers are still on their
    /// way (quitting the app with a request out, two taps before the sheet appears).
    public let waits: Bool
    /// The step's `#` comment: the one on its own line, else the comment lines just above it (a blank
    /// line or another step ends them); live replay shows it as a caption.
    public let caption: String?
    /// `when KEY=VALUE STEP`: the step runs only in the world `compare` built with that value.
    public let condition: String?

    public init(
        line: Int, text: String, kind: StepKind, mayFail: Bool = false, waits: Bool = true, caption: String? = nil,
        condition: String? = nil
    ) {
        self.line = line
        self.text = text
        self.kind = kind
        self.mayFail = mayFail
        self.waits = waits
        self.caption = caption
        self.condition = condition
    }
}

/// What a step does.
public enum StepKind: Equatable, Sendable {
    case setup(SetupStep)
    case launch
    case reader(ReaderAction)
    case world(WorldAction)
    case expect(ScenarioExpectation)

    /// A reader's or the world's action, as opposed to setup and expectations.
    public var isAction: Bool {
        switch self {
        case .reader, .world: true
        case .setup, .launch, .expect: false
        }
    }

    /// Whether the step may come before launch and builds the world there: a setup step, or a setting
    /// (`storefront`, `latency`…) that the setup gathers until launch.
    public var configures: Bool {
        switch self {
        case .setup: true
        case .world(let action): action.isSetting
        case .launch, .reader, .expect: false
        }
    }
}

/// How the world is built before launch; the settings a phone can change after it are `WorldAction`s.
public enum SetupStep: Equatable, Sendable {
    case app(String)
    /// An Xcode `.storekit` file: the app built around it, or with `app CONFIG` the owner's app selling from it.
    case storekit(String)
    case seed(UInt64)
    case device(String)
    case appleId(String)
    case account(email: String, password: String)
    /// `restore-policy NAME`: the backend's rule for a restore of a purchase another customer owns.
    case restorePolicy(RestorePolicy)
    /// `ads-for-subscribers shown|hidden`: the owner's choice whether a subscriber still sees the app's ads (seed 000:
    /// "Ads disappear for subscribers when the app owner turned that option on"); the config's when absent.
    case adsForSubscribers(shown: Bool)
    /// `refresh-token-lifetime DURATION`: how long the server keeps an unused account session. The scenarios found
    /// while it was 30 days (before session 32) keep that world, where a session ends within a month.
    case refreshTokenLifetime(SimDuration)
    /// A rule of the app's coordinator broken on purpose (what the fuzzer found it with).
    case defect(CoordinatorDefect)
}

/// What a scenario checks.
public enum ScenarioExpectation: Sendable, Equatable {
    case screen(ScreenID)
    case offers([String])
    case levels([String])
    case identity(IdentityExpectation)
    case content(id: String, unlocked: Bool)
    case ads(shown: Bool)
    case alert(String)
    case noAlert
    case text(String)
    /// The text is nowhere on the screen (an alert included).
    case noText(String)
    /// How many charges the App Store made to every Apple ID of the scenario, or to the one named.
    case charges(Int, appleId: String?)
    case pendingPayment
    case timeline(String)
    /// Exactly one line of the timeline contains the text: a message written twice is caught (`expect timeline once`).
    case timelineOnce(String)
    /// The fuzzer's guarantees held at every step so far (`Invariant`); the scenario is watched from launch.
    case invariants
    /// A new phone of the Apple ID restores, and every paid subscription gives its owner the access.
    case nothingLost
}

/// Who the backend should say the reader is.
public enum IdentityExpectation: Sendable, Equatable {
    case none
    case anonymous
    case account(String)
}
