import BackendSim
import FoundationEssentials
import SimKernel
import StoreSim

/// A simulated year of monthly renewals for 1,000 subscribers: each renewal is a charge in the fake
/// store, a signed DID_RENEW notification, and the backend applying it to the ledger (all in memory).
enum RenewalsBenchmark {
    static func run(_ options: BenchCommand.BenchOptions) throws {
        let subscribers = options.count ?? 1_000
        let (config, _) = try AppArgument.load(nil)
        let scheduler = Scheduler()
        let timeline = Timeline(clock: { scheduler.now })
        let store = try AppStore(
            store: config.store, bundleId: config.app.bundleId, scheduler: scheduler, timeline: timeline,
            random: SeededGenerator(seed: 1), latency: .none, databasePath: nil)
        let backend = try Backend(
            config: config, store: store, clock: { scheduler.now }, timeline: timeline, databasePath: nil)
        var notifications = 0
        store.notificationEndpoint = { signed in
            notifications += 1
            // The body JSONEncoder writes for it (a JWS has nothing to escape), without the encoder's cost.
            let body = Array(#"{"signedPayload":""#.utf8) + Array(signed.utf8) + Array(#""}"#.utf8)
            return backend.handle(HTTPRequest(method: "POST", path: "/v1/notifications/apple", body: body))
        }
        let monthly = "com.dailynews.premium.monthly"
        let subscribeSeconds = measure {
            for index in 0..<subscribers {
                let queue = store.paymentQueue(
                    deviceId: "phone-\(index)", appleId: "r\(index)@icloud.test", receipt: Slot())
                queue.startObserving { queue.finish($0.transactionIdentifier) }
                queue.add(productIdentifier: monthly)
                scheduler.runUntilIdle()
                queue.answerSheet(confirm: true)
                scheduler.runUntilIdle()
            }
        }
        let before = notifications
        let start = scheduler.now
        var yearSeconds = 0.0
        let cpu = Floors.cpu { yearSeconds = measure { scheduler.run(until: start + .days(365)) } }
        let renewals = notifications - before
        let perRenewal = cpu / Double(max(renewals, 1))
        let (sign, verify) = Floors.signature()
        let commit = try Floors.commit(path: nil)
        // The issue's floor, and the floor of Apple's format: DID_RENEW carries the transaction and the
        // renewal info as JWS of their own, each signed, so a faithful store signs three times a renewal.
        let floor = sign + verify + commit
        let appleFloor = 3 * sign + verify + commit
        print(
            "renewals: \(subscribers) monthly subscribers for a simulated year: \(renewals) notifications "
                + "(renewals) in \(String(printf: "%.3f", yearSeconds)) s = \(Int(Double(renewals) / yearSeconds)) per second; "
                + "subscribing them took \(String(printf: "%.3f", subscribeSeconds)) s")
        print(
            "renewals: CPU \(Floors.micros(perRenewal)) per renewal (\(String(printf: "%.2f", cpu)) s for the year); "
                + "floor \(Floors.micros(floor)) = one ES256 signature \(Floors.micros(sign)) + one verification "
                + "\(Floors.micros(verify)) + one commit \(Floors.micros(commit)): \(Floors.ratio(perRenewal, floor)) the floor; "
                + "Apple's format (3 signatures: the notification and its nested transaction and renewal info) "
                + "\(Floors.micros(appleFloor)): \(Floors.ratio(perRenewal, appleFloor)) that floor")
        BenchTable.shared.add(
            "\(subscribers) monthly subscribers × 1 year (`bench renewals`)",
            "\(Floors.micros(perRenewal)) CPU per renewal, \(Floors.ratio(perRenewal, floor)) the floor, "
                + "\(Floors.ratio(perRenewal, appleFloor)) Apple's format's",
            floor:
                "\(Floors.micros(floor)): 1 ES256 sign \(Floors.micros(sign)) + 1 verify \(Floors.micros(verify)) + 1 commit; "
                + "Apple's format (3 signs + 1 verify + 1 commit) \(Floors.micros(appleFloor))",
            goal: "≤ 1.3× the floor")
    }

    private final class Slot: ReceiptSlot {
        var receipt: String?
        func load() -> String? { receipt }
        func save(_ receipt: String?) { self.receipt = receipt }
    }
}
