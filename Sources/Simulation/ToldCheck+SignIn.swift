import Subscriptions

extension ToldCheck {
    /// A sign-in (a log-in, a sign-up) told failed while the server's acceptance of the same one reached the app: a
    /// double Enter on "Create account" sent the sign-up twice, the first made the account, and the second's "email
    /// taken", the answer the app keeps, left the reader signed in nowhere (session 38). The failure was the app's own
    /// second request; the form now waits for its answer (`AccountForm.sent`). A fault during the act excuses it (an
    /// acceptance lost on its way back was never heard).
    static func signInViolation(_ outcome: ReaderOutcome) -> InvariantViolation? {
        guard case .account(.failed(let message)) = outcome.told, outcome.signInAcceptedWhileRan else { return nil }
        return InvariantViolation(
            .toldIsTrue,
            "\(outcome.device) was told a sign-in failed (\"\(message)\"), but the server accepted the same sign-in "
                + "from this app while it ran: the reader is signed in nowhere")
    }
}
