/// Why the interactive screen cannot start, in words for the person at the terminal.
public struct TerminalError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    static func notATerminal(_ stream: String) -> TerminalError {
        TerminalError(
            "The interactive screen needs a terminal, but standard \(stream) is not one. "
                + "Run paywall-sim directly in a terminal window, without pipes or redirection.")
    }

    static let dumbTerminal = TerminalError(
        "TERM is \"dumb\": the interactive screen needs a terminal that can move the cursor. "
            + "Run it in a terminal window, or set TERM to its type, e.g. TERM=xterm-256color.")

    static func tooSmall(_ size: TerminalSize) -> TerminalError {
        TerminalError(
            "The terminal is \(size): PaywallSim needs at least \(TerminalSize.minimum). "
                + "Enlarge the window, or open a bigger one, and start it again.")
    }

    static func unknownTerminalType(_ term: String?) -> TerminalError {
        let name = term.map { "\"\($0)\"" } ?? "(TERM is not set)"
        return TerminalError(
            "ncurses does not know the terminal type \(name). Set TERM to a known type, e.g. TERM=xterm-256color.")
    }
}
