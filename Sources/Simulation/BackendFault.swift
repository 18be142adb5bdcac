import SimKernel

/// The faults the simulated network can inject on calls to the backend, by endpoint.
/// Targets: `backend` (every call of the app), or one endpoint: `receipts`, `restores`, `transfers`, `accounts`,
/// `sessions`, `me`, `content`, or `notifications`, the server's endpoint for Apple's news (Apple retries what it does
/// not answer with a 2xx, `NotificationRetry`).
public enum BackendFault: String, CaseIterable, Sendable {
    /// The server answers 500.
    case error
    /// The request is lost on the way: nothing reaches the server, no answer comes back.
    case timeout
    /// The server applies the request, but its answer is lost: the app sees a timeout.
    case lostResponse = "lost-response"
    /// A 401 `token_expired`, as from a token that ran out.
    case unauthorized
    /// A 200 whose body is not the JSON the contract promises.
    case malformed
    /// The answer comes late: `slow:DURATION` (30s when no duration is given).
    case slow

    /// The app's calls.
    public static let appTargets = [
        "backend", "receipts", "restores", "transfers", "accounts", "sessions", "me", "content",
    ]
    public static let targets = appTargets + ["notifications"]

    /// The faults that make sense on `target`: Apple's post carries no token a server could find expired, so
    /// `notifications` takes no `unauthorized` (to Apple a 401 is one more non-2xx, as `error` is).
    public static func faults(on target: String) -> [BackendFault] {
        target == "notifications" ? allCases.filter { $0 != .unauthorized } : allCases
    }

    /// The target a request's path belongs to: `/v1/restores/inspect` → `restores`.
    static func target(of path: String) -> String {
        let parts = path.split(separator: "/")
        return parts.count >= 2 ? String(parts[1]) : "backend"
    }

    /// Checks a rule meant for the backend; the message names what is allowed.
    public static func validate(_ rule: FaultRule) throws(FaultPlanError) {
        guard targets.contains(rule.target) else {
            throw FaultPlanError(
                "\"\(rule.targetAndFault)\": unknown backend target (targets: \(targets.joined(separator: ", ")))")
        }
        guard let fault = BackendFault(rawValue: rule.fault) else {
            throw FaultPlanError(
                "\"\(rule.targetAndFault)\": unknown backend fault (faults: \(allCases.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        if fault == .slow, let argument = rule.argument, SimDuration(text: argument) == nil {
            throw FaultPlanError("\"\(rule.targetAndFault)\": slow takes a duration of at most 3660d, such as slow:30s")
        }
    }
}
