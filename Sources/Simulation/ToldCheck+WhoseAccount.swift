import Subscriptions

/// Invariant 9 of whose account "…went to the account you were logged in with" speaks of, once settled: a reader signed
/// in to that account is not told to log in again to it (a restore answered while her log-in to it was on its way,
/// found-by-hand/523; a purchase, long fuzz seed 2106), and a reader signed in to another is told its name: "the
/// account you were logged in with" read as the one signed in now.
extension ToldCheck {
    static func whoseAccountViolation(_ outcome: ReaderOutcome, message: String, _ world: World) -> InvariantViolation?
    {
        guard case .account(let signedIn) = world.appState.access.identity else { return nil }
        let now = signedIn.lowercased()
        // The accounts it may speak of: the one shown when the act began, or one signed out of while it ran; never the
        // one signed in when told (a charge carried on begins as it is told, fuzz seed 5107).
        let told = outcome.identityWhenTold
        var accounts: [String] = []
        for identity in [outcome.identityWhenBegan] + outcome.identitiesWhileRan where identity != told {
            if case .account(let email) = identity, !accounts.contains(email.lowercased()) {
                accounts.append(email.lowercased())
            }
        }
        guard let first = accounts.first else { return nil }
        if accounts == [now] {
            return InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName) was told \(describe(outcome.told)), but is signed in to \(signedIn), the account "
                    + "it went to")
        }
        let others = accounts.filter { $0 != now }
        guard !others.isEmpty, !others.contains(where: { message.lowercased().contains($0) }) else { return nil }
        return InvariantViolation(
            .toldIsTrue,
            "\(world.deviceName) was told \(describe(outcome.told)) while signed in to \(signedIn), without naming the "
                + "account it went to (\(first))")
    }
}
