import AppFlow
import SimKernel
import Simulation

/// Writes what happens to a world as a scenario: the setup, each reader action and outside step in
/// the words a person would write, then expectations of the final screen, levels, identity and charges.
public final class ScenarioRecorder {
    private var lines: [String]
    /// Screens the reader opened that no step names (the login form before `login`): backing out of
    /// one is not a step either.
    private var unrecordedScreens = 0

    /// Starts with the setup that rebuilds the world: app, seed, latency, any further `setup`, then `launch`.
    public init(
        app: String, seed: UInt64, latency: LatencyProfile, setup: [SetupStep] = [], comments: [String] = []
    ) {
        lines = comments.map { "# \($0)" }
        lines += ([.app(app), .seed(seed), .latency(latency)] + setup).map(StepText.setup) + ["launch"]
    }

    /// Records every reader action on `world`'s phones from now on.
    public func attach(to world: World) {
        world.onReaderAction = { [weak self] action in self?.record(action) }
    }

    public func record(_ action: ReaderAction) {
        switch action {
        case .openLogin, .openSignup:
            unrecordedScreens += 1
        case .back where unrecordedScreens > 0:
            unrecordedScreens -= 1
        case .answerGate(let answer) where answer.trimmingCharacters(in: .whitespaces).isEmpty:
            note("the reader answered the parental gate with nothing (no step says this)")
        default:
            if case .logIn = action { unrecordedScreens = 0 }
            if case .signUp = action { unrecordedScreens = 0 }
            if let line = StepText.reader(action) {
                lines.append(line)
            } else {
                note("the reader did \(action) (no step says this yet)")
            }
        }
    }

    public func record(_ step: WorldStep) { lines.append(StepText.world(step)) }

    /// A setting changed after launch (latency, storefront, locale, an injected fault).
    public func record(_ setup: SetupStep) { lines.append(StepText.setup(setup)) }

    /// A `#` comment line.
    public func note(_ comment: String) { lines.append("# \(comment)") }

    /// The scenario so far, ending with what `world` shows now.
    public func text(endingWith world: World) -> String {
        (lines + [""] + Self.expectations(of: world).map(StepText.expectation)).joined(separator: "\n") + "\n"
    }

    /// The final screen, levels, identity and charges.
    public static func expectations(of world: World) -> [ScenarioExpectation] {
        let access = world.appState.access
        let identity: IdentityExpectation
        switch access.identity {
        case .none: identity = .none
        case .anonymous: identity = .anonymous
        case .account(let email): identity = .account(email)
        }
        return [
            .screen(world.screen.visibleID), .levels(access.levels.map(\.rawValue).sorted()), .identity(identity),
            .charges(world.charges),
        ]
    }
}
