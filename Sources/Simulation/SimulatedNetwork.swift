import BackendSim
import SimKernel
import Subscriptions

/// The app's `BackendTransport` in the simulator: the request crosses the virtual network with
/// the latency profile's delay each way, and the backend answers in process.
final class SimulatedNetwork: BackendTransport {
    private let backend: Backend
    private let scheduler: Scheduler
    private let timeline: Timeline
    private var random: SeededGenerator
    var latency: LatencyProfile

    init(backend: Backend, scheduler: Scheduler, timeline: Timeline, random: SeededGenerator, latency: LatencyProfile) {
        self.backend = backend
        self.scheduler = scheduler
        self.timeline = timeline
        self.random = random
        self.latency = latency
    }

    func send(_ request: HTTPRequest, completion: @escaping (HTTPResponse) -> Void) {
        timeline.log(.app, "→ \(request.method) \(request.path)")
        let there = latency.delay(for: .backendRequest, using: &random)
        let back = latency.delay(for: .backendRequest, using: &random)
        scheduler.schedule(after: there) { [self] in
            let response = backend.handle(request)
            scheduler.schedule(after: back) { [self] in
                timeline.log(.app, "← \(response.status) \(request.method) \(request.path)")
                completion(response)
            }
        }
    }
}
