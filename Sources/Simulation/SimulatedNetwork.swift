import BackendSim
import SimKernel
import Subscriptions

/// The app's `BackendTransport` in the simulator: the request crosses the virtual network with
/// the latency profile's delay each way, and the backend answers in process. Injected faults
/// (`BackendFault`) happen here, each one written on the timeline.
final class SimulatedNetwork: BackendTransport {
    private let backend: Backend
    private let scheduler: Scheduler
    private let timeline: Timeline
    private var random: SeededGenerator
    var latency: LatencyProfile
    var faults = FaultPlan()
    /// When the last fault was injected, for the invariants that excuse what a fault explains.
    private(set) var lastFault: SimInstant?
    /// When an injected 401 last reached the phone as a session refresh's answer: the phone then rightly ends a
    /// session the server holds.
    private(set) var lastRefreshRefusedByFault: SimInstant?

    /// The virtual clock's instant, for what watches the network from outside the app (`PhoneTransport`).
    var now: SimInstant { scheduler.now }

    init(backend: Backend, scheduler: Scheduler, timeline: Timeline, random: SeededGenerator, latency: LatencyProfile) {
        self.backend = backend
        self.scheduler = scheduler
        self.timeline = timeline
        self.random = random
        self.latency = latency
    }

    /// Apple's post of a server notification to the backend, under the `notifications` faults: the server's answer,
    /// or nil when none reaches Apple (the request or the answer lost, or later than Apple waits).
    func postNotification(_ request: HTTPRequest) -> HTTPResponse? {
        guard let rule = faults.draw(for: "notifications", using: &random) else { return backend.handle(request) }
        lastFault = scheduler.now
        let fault = BackendFault(rawValue: rule.fault)
        // A 200 in the server's place: Apple's line says the news counts as delivered, this one who never saw it
        // (session 31, tester h12: the fault was told and then nothing).
        let unseen = fault == .malformed ? ": the server never sees it" : ""
        timeline.log(
            .control, "fault: notifications \(rule.fault) on \(request.method) \(request.path)\(unseen)",
            event: .faultFired(.backend, target: rule.target))
        switch fault {
        case .error: return HTTPResponse(status: 500, body: Array(#"{"error":"internal"}"#.utf8))
        case .timeout: return nil
        case .unauthorized: return HTTPResponse(status: 401, body: Array(#"{"error":"token_expired"}"#.utf8))
        case .malformed: return HTTPResponse(status: 200, body: Array("<html>502 Bad Gateway</html>".utf8))
        case .slow:
            // Applied, but an answer later than Apple waits is none (about 30 s, forum 779594).
            let late = rule.argument.flatMap { SimDuration(text: $0) } ?? .seconds(30)
            let answer = backend.handle(request)
            return late < Self.appleWaits ? answer : nil
        default:
            // Lost on its way back: the server applied it, Apple heard nothing.
            _ = backend.handle(request)
            return nil
        }
    }

    /// How long Apple waits for the server's answer to a notification.
    static let appleWaits = SimDuration.seconds(30)

    func send(_ request: HTTPRequest, completion: @escaping (HTTPResponse) -> Void) {
        send(request, handled: nil, completion: completion)
    }

    /// `handled`: told as the backend answers (not a fault standing in for it), whether or not the answer then
    /// reaches the app (a quit loses it).
    func send(
        _ request: HTTPRequest, handled: ((HTTPResponse) -> Void)?, completion: @escaping (HTTPResponse) -> Void
    ) {
        timeline.log(.app, "→ \(request.method) \(request.path)")
        let there = latency.delay(for: .backendRequest, using: &random)
        var back = latency.delay(for: .backendRequest, using: &random)
        let target = BackendFault.target(of: request.path)
        let rule = faults.draw(for: target, using: &random) ?? faults.draw(for: "backend", using: &random)
        let fault = rule.flatMap { BackendFault(rawValue: $0.fault) }
        if let rule {
            lastFault = scheduler.now
            timeline.log(
                .control, "fault: \(rule.target) \(rule.fault) on \(request.method) \(request.path)",
                event: .faultFired(.backend, target: rule.target))
        }
        if fault == .slow { back = back + (rule?.argument.flatMap { SimDuration(text: $0) } ?? .seconds(30)) }
        if fault == .timeout { return }
        scheduler.schedule(after: there) { [self] in
            let response: HTTPResponse
            switch fault {
            case .error: response = HTTPResponse(status: 500, body: Array(#"{"error":"internal"}"#.utf8))
            case .unauthorized: response = HTTPResponse(status: 401, body: Array(#"{"error":"token_expired"}"#.utf8))
            case .malformed: response = HTTPResponse(status: 200, body: Array("<html>502 Bad Gateway</html>".utf8))
            default:
                response = backend.handle(request)
                handled?(response)
            }
            if fault == .lostResponse { return }
            scheduler.schedule(after: back) { [self] in
                timeline.log(.app, "← \(response.status) \(request.method) \(request.path)")
                // Dated as it arrives: the reader may move on before it does (fuzz seed 4317).
                if fault == .unauthorized, request.path == "/v1/sessions/refresh" {
                    lastRefreshRefusedByFault = scheduler.now
                }
                completion(response)
            }
        }
    }
}
