/// The same log-in sent again while the first was on its way (a double Enter, a reader who thinks nothing happened):
/// to the reader one request, answered once. An acceptance of any of them answers it, whichever the server saw first;
/// a refusal is told only once none of them is still on its way, for the server may yet accept one sent earlier (a
/// sign-up beside them made the account between the two, fuzz seeds 5193, 5195; a fault met only the later one,
/// session 39). Told then, it is the latest's own refusal, as the app told before, or the server's refusal of an
/// earlier one where the latest's is no word from the server.
struct SameLogIns {
    let email: String
    let password: String
    /// The first of them and the latest, by the coordinator's count of sign-ins (a sign-up between them keeps its own).
    let first: Int
    private(set) var latest: Int
    private var onTheirWay = 1
    /// The latest's refusal, held while an earlier one is on its way, and the server's own word refusing any of them.
    private var latestRefusal: BackendFailure?
    private var heardRefusal: BackendFailure?

    init(email: String, password: String, attempt: Int) {
        (self.email, self.password, first, latest) = (email, password, attempt, attempt)
    }

    func isSame(email: String, password: String) -> Bool {
        self.email == email && self.password == password
    }

    mutating func sentAgain(_ attempt: Int) {
        latest = attempt
        onTheirWay += 1
    }

    /// What one of them answered comes to.
    enum Answer {
        /// The answer to the latest, told as its own.
        case latest(Result<SessionAnswer, BackendFailure>)
        /// Nothing yet: a refusal while another of them is on its way.
        case held
        /// Not theirs to answer: it is what it is (the app took an answer of theirs, or a sign-in was sent since).
        case own
    }

    /// `attempt`'s answer. `current`: the latest of them is the app's latest sign-in and no answer was taken for it.
    /// `waits`: a refusal waits for the others (false only for the planted defect, the app before session 39).
    mutating func answer(_ attempt: Int, _ result: Result<SessionAnswer, BackendFailure>, current: Bool, waits: Bool)
        -> Answer
    {
        guard (first...latest).contains(attempt) else { return .own }
        onTheirWay -= 1
        guard current else { return .own }
        switch result {
        case .success:
            return .latest(result)
        case .failure(let refusal):
            if attempt == latest { latestRefusal = refusal }
            if !Self.unheard(refusal) { heardRefusal = refusal }
            guard waits else { return attempt == latest ? .latest(result) : .own }
            guard onTheirWay == 0 else { return .held }
            // The server's word over none: "could not be reached" of the latest when the server said of an earlier one
            // that the password is wrong sends the reader to try the same words again.
            let told = latestRefusal ?? refusal
            return .latest(.failure(Self.unheard(told) ? heardRefusal ?? told : told))
        }
    }

    /// No word from the server: a 5xx, an unreadable answer, none in time.
    private static func unheard(_ failure: BackendFailure) -> Bool {
        failure == .unavailable || failure == .timedOut
    }
}
