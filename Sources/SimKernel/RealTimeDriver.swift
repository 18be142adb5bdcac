/// Maps wall time to virtual time for the interactive screen:
/// virtual = anchorVirtual + (wall - anchorWall) × speed. It never reads a clock itself: the terminal
/// passes monotonic readings in, so the engine stays deterministic and this mapping stays testable.
public struct RealTimeDriver: Equatable, Sendable {
    /// The longest wait for a key, so the status-bar clock never lags far behind.
    public static let maxWaitMilliseconds = 250

    public private(set) var anchorWallNanoseconds: Int64
    public private(set) var anchorVirtual: SimInstant
    /// Virtual seconds per wall second.
    public private(set) var speed: Double

    public init(anchorWallNanoseconds: Int64, anchorVirtual: SimInstant, speed: Double = 1.0) {
        self.anchorWallNanoseconds = anchorWallNanoseconds
        self.anchorVirtual = anchorVirtual
        self.speed = max(speed, 0)
    }

    /// The virtual instant that wall time `wall` stands for.
    public func virtualInstant(atWall wall: Int64) -> SimInstant {
        let elapsedMilliseconds = Double(wall - anchorWallNanoseconds) / 1_000_000 * speed
        return anchorVirtual + .millis(Int64(elapsedMilliseconds.rounded(.down)))
    }

    /// Where the scheduler should run to at `wall`. When the world's clock has moved ahead on its own
    /// (time travel), the mapping re-anchors there instead of freezing until the wall clock catches up.
    public mutating func target(atWall wall: Int64, schedulerNow: SimInstant) -> SimInstant {
        let mapped = virtualInstant(atWall: wall)
        if schedulerNow > mapped {
            anchorWallNanoseconds = wall
            anchorVirtual = schedulerNow
            return schedulerNow
        }
        return mapped
    }

    /// Changes the speed from `wall` on, without a jump in virtual time.
    public mutating func setSpeed(_ newSpeed: Double, atWall wall: Int64) {
        anchorVirtual = virtualInstant(atWall: wall)
        anchorWallNanoseconds = wall
        speed = max(newSpeed, 0)
    }

    /// How long to wait for a key at virtual time `now`: until the next event is due, or the spinner's
    /// next step, at most `maxWaitMilliseconds`.
    public func waitMilliseconds(now: SimInstant, nextDue: SimInstant?, spinnerStep: Int64?) -> Int {
        var wait = Self.maxWaitMilliseconds
        guard speed > 0 else { return wait }
        if let nextDue {
            wait = min(wait, wallMilliseconds(forVirtual: max(0, (nextDue - now).milliseconds)))
        }
        if let spinnerStep, spinnerStep > 0 {
            let untilStep = spinnerStep - now.milliseconds % spinnerStep
            wait = min(wait, wallMilliseconds(forVirtual: untilStep))
        }
        return max(0, wait)
    }

    private func wallMilliseconds(forVirtual milliseconds: Int64) -> Int {
        let wall = (Double(milliseconds) / speed).rounded(.up)
        return wall >= Double(Self.maxWaitMilliseconds) ? Self.maxWaitMilliseconds : Int(wall)
    }
}
