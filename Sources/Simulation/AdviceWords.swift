import Synchronization

/// What a purchase alert's words advise (`ToldCheck.adviceViolation`), read once per text: its four `contains`
/// (StringProcessing's generic search, by characters) were 8.9 M instructions of a 30-run fuzz, for a handful of
/// texts. Kept by the message's bytes, so two texts Swift takes as equal are still read apart: the same answers.
struct AdviceWords: Sendable {
    /// The move limit's words: "moved too often" or "moves at most".
    let movesLimit: Bool
    /// The words advise Restore purchase as what brings the subscription: not "Restore purchase checks again" of a
    /// subscription held elsewhere whose restore the app could not check (`uncheckedWords`), which promises nothing
    /// the server may refuse (session 37).
    let restore: Bool
    /// The words send a guest to log in to an account that holds the purchase.
    let logIn: Bool

    private init(_ message: String) {
        let words = message.lowercased()
        movesLimit = words.contains("moved too often") || words.contains("moves at most")
        restore = words.replacing("restore purchase checks again", with: "").contains("restore purchase")
        logIn = words.contains("log in to")
    }

    private static let read = Mutex<[[UInt8]: AdviceWords]>([:])

    static func of(_ message: String) -> AdviceWords {
        let key = Array(message.utf8)
        if let known = read.withLock({ $0[key] }) { return known }
        let advice = AdviceWords(message)
        read.withLock { read in
            if read.count >= 256 { read.removeAll() }  // bounded, whatever a long run tells
            read[key] = advice
        }
        return advice
    }
}
