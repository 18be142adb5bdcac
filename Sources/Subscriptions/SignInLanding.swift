/// A sign-in that lands on an account the phone heard newer word about while it was on its way. A log-out and the same
/// log-in, sent without waiting after a receipt: the receipt's answer about the account, dropped as nobody was signed
/// in, was composed after the sign-in's, so the sign-in's levels were older news, and the purchase's outcome told the
/// reader to "log in again" while she was logging in to that very account (long fuzz seed 2106).
extension SubscriptionCoordinator {
    /// The answer whose levels a sign-in about to be kept gives the account: the newest heard about it when the server
    /// gave it after the sign-in's, else the sign-in's own, then noted as the newest.
    func newestAnswer(signingIn answer: AccessAnswer) -> AccessAnswer {
        guard let stamp = backend.answeringStamp else { return answer }
        if let newest = newestWord[answer.identityId], stamp < newest, let newer = accountWords[answer.identityId] {
            log("a newer answer about \(answer.identityId) came while the sign-in was on its way: its levels are kept")
            return newer
        }
        newestWord[answer.identityId] = stamp
        accountWords[answer.identityId] = answer
        return answer
    }

    /// Whether a sign-in is on its way: who the phone is may change when it lands.
    var signInOnItsWay: Bool { signInTaken < signIns }

    /// Whether the latest sign-in, still on its way, is a log-in to `email`: an answer about that account waits for it.
    func logInOnItsWay(to email: String?) -> Bool {
        guard let email, signInTaken < signIns, let same = sameLogIns, same.latest == signIns else { return false }
        return same.email.lowercased() == email.lowercased()
    }

    /// What waited for the latest sign-in, run once none is on its way.
    func runAfterSignIn() {
        guard signInTaken == signIns, !afterSignIn.isEmpty else { return }
        let waiting = afterSignIn
        afterSignIn = []
        for run in waiting { run() }
    }
}
