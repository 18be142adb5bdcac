import AppFlow
import FoundationEssentials
import SimKernel
import StoreSim

/// What happens to one Apple ID's subscription over months, step by step, on a world kept on disk:
/// purchases on new phones, restores on another phone, renewals, now and then a refund. It is the
/// work `bench lifecycle` times and the crash-safety test kills mid-write.
///
/// A world reopened on the same state directory continues: its clock carries on (`World` resumes it),
/// and new phones are numbered after those already on disk, so a rerun never reuses one.
public final class LifecycleWorkload {
    public enum Step: String, Sendable {
        case purchase
        case restore
        case renewal
        case refund
    }

    public let world: World
    private var random: SeededGenerator
    private var nextPhone: Int
    /// Reader actions the screens did not allow (a paywall without offers…); each is also on the timeline.
    public private(set) var refusedActions = 0
    /// Called after each event the workload runs on the scheduler (an answer, a charge, a notification):
    /// `bench lifecycle --progress` prints a line for each, so a test can stop the process between any two.
    public var onEvent: (() -> Void)?

    public init(world: World, seed: UInt64) {
        self.world = world
        random = SeededGenerator(seed: seed)
        nextPhone = Self.phonesOnDisk(world) + 1
    }

    /// One step, drawn from the seed: a purchase when nothing is paid for, else a restore on a new
    /// phone, a month's renewal, or (one time in ten) a refund. The world is idle when it returns.
    @discardableResult
    public func step() throws -> Step {
        let step: Step
        if world.paidSubscriptions.isEmpty {
            step = .purchase
        } else {
            switch random.next() % 20 {
            case 0..<9: step = .restore
            case 9..<18: step = .renewal
            default: step = .refund
            }
        }
        switch step {
        case .purchase:
            try newPhone()
            guard let locked = world.config.app.content.first(where: { !$0.requiredLevels.isEmpty }),
                let offer = world.config.app.subscriptions.first
            else { break }
            attempt(.openContent(locked.id))
            attempt(.subscribe)
            attempt(.selectOffer(offer.id))
            attempt(.confirmPayment)
        case .restore:
            try newPhone()
            attempt(.openProfile)
            attempt(.restore)
        case .renewal:
            if !world.travelToNextRenewal() { world.travel(by: .days(30)) }
        case .refund:
            world.refundLatest()
        }
        settle()
        return step
    }

    /// Runs the scheduler until idle, one event at a time.
    private func settle() {
        while world.scheduler.runUntilIdle(maxEvents: 1) > 0 { onEvent?() }
    }

    private func attempt(_ action: ReaderAction) {
        settle()
        do {
            try world.perform(action)
        } catch {
            refusedActions += 1
        }
    }

    /// Phones the workload keeps: each new one puts away the one made this many phones before it. A
    /// receipt lists the Apple ID's whole history, so keeping every phone grew the folder quadratically.
    public static let phonesKept = 8

    private func newPhone() throws(WorldSetupError) {
        try world.newDevice(named: "phone-\(nextPhone)")
        if nextPhone > Self.phonesKept { try world.retireDevice(named: "phone-\(nextPhone - Self.phonesKept)") }
        nextPhone += 1
        settle()
    }

    /// The number after the highest `phone-N` an earlier run left on disk (the older ones were put away).
    private static func phonesOnDisk(_ world: World) -> Int {
        guard let state = world.options.stateDirectory,
            let names = try? FileManager.default.contentsOfDirectory(atPath: state + "/devices")
        else { return 0 }
        return names.compactMap { $0.hasPrefix("phone-") ? Int($0.dropFirst("phone-".count)) : nil }.max() ?? 0
    }
}
