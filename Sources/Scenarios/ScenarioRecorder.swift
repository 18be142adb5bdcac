import AppFlow
import SimKernel
import Simulation

/// Writes what happens to a world as a scenario: the setup, each reader action and world action in
/// the words a person would write, then expectations of the final screen, levels, identity and charges.
/// Every line it writes is a step that replays: an action the world refused is a comment.
public final class ScenarioRecorder {
    private var lines: [String]

    /// Starts with the setup that rebuilds the world: app, seed, latency, any further `setup` and
    /// `settings`, then `launch`.
    public init(
        app: String, seed: UInt64, latency: LatencyProfile, setup: [SetupStep] = [], settings: [WorldAction] = [],
        comments: [String] = []
    ) {
        lines = comments.map { "# \($0)" }
        lines += [.app(app), .seed(seed)].map(StepText.setup) + [WorldAction.latency(latency).text]
        lines += setup.map(StepText.setup) + settings.map(\.text) + ["launch"]
    }

    /// Records every reader action on `world`'s phones from now on.
    public func attach(to world: World) {
        world.onReaderAction = { [weak self] action in self?.record(action) }
    }

    public func record(_ action: ReaderAction) { lines.append(StepText.reader(action)) }

    /// An action the world did; one it refused changed nothing, so it is a comment, never a failing step.
    public func record(_ action: WorldAction, refusal: WorldActionRefusal? = nil) {
        if let refusal {
            note("\(action.text) did nothing: \(refusal)")
        } else {
            lines.append(action.text)
        }
    }

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
