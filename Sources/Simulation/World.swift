import AppFlow
import BackendSim
import Foundation
import SimKernel
import StoreSim
import Subscriptions
import WhiteLabel

/// How a world is set up.
public struct WorldOptions: Sendable {
    public var seed: UInt64
    public var latency: LatencyProfile
    /// Where `appstore.sqlite`, `backend.sqlite` and `devices/` live; nil keeps everything in memory.
    public var stateDirectory: String?
    public var appleId: String
    public var deviceName: String

    public init(
        seed: UInt64 = 1, latency: LatencyProfile = .typical, stateDirectory: String? = nil,
        appleId: String = "reader@icloud.test", deviceName: String = "iphone"
    ) {
        self.seed = seed
        self.latency = latency
        self.stateDirectory = stateDirectory
        self.appleId = appleId
        self.deviceName = deviceName
    }
}

/// Why a world could not be assembled (a state directory that cannot be written, a bad catalog).
public struct WorldSetupError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// The whole simulated world, assembled in one place: one scheduler, one App Store, one backend,
/// the phone with its coordinator and app, and the timeline of every message. The terminal and the
/// headless tests drive this same world.
public final class World {
    public let config: DemoConfig
    public let scheduler: Scheduler
    public let timeline: Timeline
    public let store: AppStore
    public let backend: Backend
    let device: Device
    let options: WorldOptions

    public init(config: DemoConfig, options: WorldOptions) throws(WorldSetupError) {
        self.config = config
        self.options = options
        let scheduler = Scheduler()
        let timeline = Timeline(clock: { scheduler.now })
        var random = SeededGenerator(seed: options.seed)
        let state = options.stateDirectory
        do {
            if let state { try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true) }
            store = try AppStore(
                store: config.store, bundleId: config.app.bundleId, scheduler: scheduler, timeline: timeline,
                random: random.split(), latency: options.latency, databasePath: state.map { $0 + "/appstore.sqlite" })
            backend = try Backend(
                config: config, store: store, clock: { scheduler.now }, timeline: timeline,
                databasePath: state.map { $0 + "/backend.sqlite" })
            let network = SimulatedNetwork(
                backend: backend, scheduler: scheduler, timeline: timeline, random: random.split(),
                latency: options.latency)
            let files: DeviceStorage & ReceiptSlot =
                try state.map { try DeviceFiles(directory: "\($0)/devices/\(options.deviceName)") } ?? DeviceMemory()
            let queue = store.paymentQueue(
                deviceId: "\(options.deviceName)-\(options.appleId)", appleId: options.appleId, receipt: files)
            device = Device(
                name: options.deviceName, app: config.app, queue: queue, storage: files, network: network,
                scheduler: scheduler, timeline: timeline)
            // App Store Connect points the app's server notifications at the backend.
            store.notificationEndpoint = { [backend] signedPayload in
                let body = (try? JSONEncoder().encode(["signedPayload": signedPayload])).map(Array.init) ?? []
                _ = backend.handle(
                    HTTPRequest(
                        method: "POST", path: "/v1/notifications/apple", headers: ["Content-Type": "application/json"],
                        body: body))
            }
        } catch {
            throw WorldSetupError(description: "\(error)")
        }
        self.scheduler = scheduler
        self.timeline = timeline
    }

    /// Starts the app on the phone.
    public func launch() {
        device.launch()
    }

    /// The reader's input, delivered to the phone's app.
    public func send(_ input: ReaderInput) {
        device.dispatch(.reader(input))
    }

    /// What the phone shows now.
    public var screen: ScreenModel { device.state.screen }

    /// The app's state on the phone, for checks.
    public var appState: AppState { device.state }

    /// Injects faults on the app's calls to the backend; each rule is checked first.
    public func injectBackendFaults(_ plan: FaultPlan) throws(FaultPlanError) {
        for rule in plan.rules {
            try BackendFault.validate(rule)
            device.network.faults.add(rule)
            timeline.log(.control, "inject \(rule)")
        }
    }

    /// How many times the App Store charged the reader's Apple ID.
    public var charges: Int { store.charges(appleId: options.appleId) }
}
