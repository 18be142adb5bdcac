import SimKernel
import Subscriptions

/// 4's "a cancellation never shows an error", of the Apple ID sign-in a receipt refresh asks for (session 43): a
/// restore or a purchase started on the phone, whose only failure since it began is a refresh of that phone the reader
/// cancelled (no other fault of the store or the backend fired since, and Apple failed none of that phone's payments for
/// its own reason: a storefront move while the sheet was up, long fuzz seed 2479), tells no error. Seed 001: "User
/// cancellation is sanitized so it does not produce a technical error alert". A cancelled payment is judged by the
/// alert it leaves (`InvariantMonitor.transitionViolations`).
struct CancelToldCheck {
    /// Every fault fired (either side), its target and when; each refresh the reader cancelled, its phone and when it
    /// was asked; each payment Apple failed (`WorldEvent.paymentFailed`), its phone and when.
    private var faults: [(at: SimInstant, target: String)] = []
    private var cancelledRefreshes: [(deviceId: String, asked: SimInstant)] = []
    private var failedPayments: [(deviceId: String, at: SimInstant)] = []

    mutating func faultFired(_ target: String, at instant: SimInstant) {
        faults.append((instant, target))
    }

    mutating func refreshCancelled(deviceId: String, askedAt: SimInstant) {
        cancelledRefreshes.append((deviceId, askedAt))
    }

    mutating func paymentFailed(deviceId: String, at instant: SimInstant) {
        failedPayments.append((deviceId, instant))
    }

    /// The acts told on the phone on screen during the step that ended in an error over a cancelled refresh alone.
    func check(_ context: StepContext, toldSince first: Int) -> [InvariantViolation] {
        let outcomes = context.world.readerOutcomes
        guard !cancelledRefreshes.isEmpty, first < outcomes.count else { return [] }
        return outcomes[first...].compactMap { outcome in
            guard outcome.device == context.world.deviceName, !outcome.carriedOn, let error = Self.error(outcome.told)
            else { return nil }
            let deviceId = World.deviceId(outcome.device, context.world.appleId)
            let cancels = cancelledRefreshes.filter { $0.deviceId == deviceId && $0.asked >= outcome.began }.map(
                \.asked)
            guard !cancels.isEmpty,
                !failedPayments.contains(where: { $0.deviceId == deviceId && $0.at >= outcome.began })
            else { return nil }
            // The refresh's own fault fired as it was asked: one receipt-refresh fault at each cancelled refresh's ask.
            var others = faults.filter { $0.at >= outcome.began }
            for asked in cancels {
                if let own = others.firstIndex(where: { $0.at == asked && $0.target == "receipt-refresh" }) {
                    others.remove(at: own)
                }
            }
            guard others.isEmpty else { return nil }
            return InvariantViolation(
                .onePaymentAtATime,
                "the reader cancelled Apple's sign-in for a receipt, and no other fault or failure of Apple's since "
                    + "the act began at \(outcome.began), yet the app told an error: \(error)")
        }
    }

    /// The words of an outcome that tells the reader something failed; nil for any other.
    private static func error(_ told: ReaderOutcome.Told) -> String? {
        switch told {
        case .restore(.failed(let message)), .purchase(.failed(let message)),
            .purchase(.serverCheckFailed(let message)), .purchase(.notConfirmed(let message)):
            "\"\(message)\""
        case .restore(.notConfirmed): "\"\(RestoreOutcome.notConfirmed.message)\""
        default: nil
        }
    }
}
