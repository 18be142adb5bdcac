import SimKernel

/// Apple's retries of a server notification the server did not answer with a 2xx (an error, no answer, lost on the
/// way): App Store Server Notifications V2 tries again 1, 12, 24, 48 and 72 hours after the previous attempt, then
/// gives up ("Responding to App Store Server Notifications"). Apple's sandbox sends once; the simulator retries on
/// the production schedule, so a REFUND the server missed still takes premium away (session 30).
enum NotificationRetry {
    /// The wait before each retry, after the attempt before it.
    static let waits: [SimDuration] = [.hours(1), .hours(12), .hours(24), .hours(48), .hours(72)]

    /// How long after its `attempts`-th attempt failed a notification is tried again; nil once the last retry
    /// failed, when Apple drops it.
    static func wait(afterAttempts attempts: Int) -> SimDuration? {
        attempts >= 1 && attempts <= waits.count ? waits[attempts - 1] : nil
    }

    /// A wait as the timeline says it: `1h`, `72h`.
    static func text(_ wait: SimDuration) -> String { "\(wait.milliseconds / 3_600_000)h" }

    /// How the timeline names an attempt: the first by the notification's name alone, a retry with its number.
    static func name(_ name: String, attempt: Int) -> String {
        attempt <= 1 ? name : "\(name) (retry \(attempt - 1) of \(waits.count))"
    }
}
