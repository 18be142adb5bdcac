import Subscriptions

extension ToldCheck {
    /// A sign-in (a log-in, a sign-up) told failed while the server accepted the same one from this app: a double Enter
    /// on "Create account" sent the sign-up twice, the first made the account, and the second's "email taken", the
    /// answer the app keeps, left the reader signed in nowhere (session 38); the same log-in sent twice, the later one
    /// refused first (a fault, the account not made yet) and the earlier one accepted after the refusal was told (session
    /// 39). Judged once settled, whatever the faults: only the server's own acceptance counts, of one sent before the
    /// failure was told that reached the app (not lost, nor given up at its timeout) after the act began (an acceptance
    /// from before the act, a sign-up made again after a log-out, is no lie), while the same sign-in was still the
    /// app's last (`PhoneTransport.signIn`).
    static func signInViolation(_ outcome: ReaderOutcome, _ world: World) -> InvariantViolation? {
        guard case .account(.failed(let message)) = outcome.told, let failed = outcome.signInFailed,
            let signIn = world.device.transport.signIn, signIn.run == failed.run,
            signIn.accepted.contains(where: { $0.sent < failed.told && $0.reached > failed.began })
        else { return nil }
        return InvariantViolation(
            .toldIsTrue,
            "\(outcome.device) was told a sign-in failed (\"\(message)\"), but the server accepted the same sign-in "
                + "from this app, sent before the failure was told")
    }
}
