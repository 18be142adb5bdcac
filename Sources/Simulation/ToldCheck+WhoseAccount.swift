import Subscriptions

/// Invariant 9 of whose account "…went to the account you were logged in with" speaks of, once settled: a reader signed
/// in to that account is not told to log in again to it (a restore answered while her log-in to it was on its way,
/// found-by-hand/523; a purchase, long fuzz seed 2106), and a reader signed in to another is told its name: "the
/// account you were logged in with" read as the one signed in now.
extension ToldCheck {
    static func whoseAccountViolation(_ outcome: ReaderOutcome, message: String, _ world: World) -> InvariantViolation?
    {
        guard case .account(let now) = world.appState.access.identity else { return nil }
        // The accounts it may speak of: the one shown when the act began, or one signed out of while it ran.
        let accounts = ([outcome.identityWhenBegan] + outcome.identitiesWhileRan).compactMap { identity in
            if case .account(let email) = identity { email.lowercased() } else { nil }
        }
        guard let began = accounts.first else { return nil }
        if case .account(let email) = outcome.identityWhenBegan, email.lowercased() == now.lowercased() {
            return InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName) was told \(describe(outcome.told)), but is signed in to \(email), the account "
                    + "it went to")
        }
        let others = accounts.filter { $0 != now.lowercased() }
        guard !others.isEmpty, !others.contains(where: { message.lowercased().contains($0) }) else { return nil }
        return InvariantViolation(
            .toldIsTrue,
            "\(world.deviceName) was told \(describe(outcome.told)) while signed in to \(now), without naming the "
                + "account it went to (\(began))")
    }
}
