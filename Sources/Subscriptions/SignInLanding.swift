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

    /// Whether a sign-in is on its way: an outcome about an account signed out of waits for it, since who it lands on
    /// decides the words (the same account: the outcome is hers; another: the one it went to is named).
    var signInOnItsWay: Bool { signInTaken < signIns }

    /// What waited for the latest sign-in, run once none is on its way.
    func runAfterSignIn() {
        guard signInTaken == signIns, !afterSignIn.isEmpty else { return }
        let waiting = afterSignIn
        afterSignIn = []
        for run in waiting { run() }
    }
}

extension SubscriptionCoordinator {
    /// Where a purchase or a restore went that the server gave the account signed out of while it ran (`what`: "purchase",
    /// "purchases"). With another account signed in now, "the account you were logged in with" could be read as that
    /// one: the account is named, `email` (found-by-hand/523).
    static func wentToAccount(_ what: String, _ email: String?, now: AccountSession?) -> String {
        let them = what == "purchase" ? "it" : "them"
        guard let now, let email, now.email.lowercased() != email.lowercased() else {
            return "Your \(what) went to the account you were logged in with. Log in again to use \(them)."
        }
        return "Your \(what) went to the account you were logged in with before, \(email), not \(now.email). "
            + "Log in to \(email) to use \(them)."
    }
}
