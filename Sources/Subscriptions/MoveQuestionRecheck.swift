/// "Move it to the account you are signed in with?" (a restore that found another account's subscription, a purchase
/// that stopped before paying for one held elsewhere) is the server's word as it was when asked. While the question is
/// on screen the subscription may end (it expires, is refunded) or move elsewhere, or the reader be signed out, and a
/// "Move it" then acted on a judgement that no longer held (session 35). The app asks again as it becomes active, and
/// the question goes, with why, where the move can no longer be made; the answer's own restore is judged by the server.
public enum MoveQuestionVerdict: Equatable, Sendable {
    /// The server still reports a purchase of the Apple ID someone else holds that may move here, or could not say.
    case stands
    /// No account is signed in any more: there is nowhere to move it to.
    case signedOut
    /// Nothing the Apple ID pays for is active any more (it expired, or was refunded).
    case ended
    /// What is active is the account's already (a restore on another of its phones moved it).
    case alreadyYours
    /// Still held by someone else, and the rules keep it there now.
    case cannotMove(MoveRefusal)

    /// What the reader is told as the question goes; nil while it stands.
    public var message: String? {
        switch self {
        case .stands: nil
        case .signedOut:
            "Nothing was moved: you are no longer signed in, so there is no account to move the subscription to."
        case .ended:
            "Nothing was moved: the subscription this Apple ID paid for has ended (it expired or was refunded), so "
                + "there is nothing to move."
        case .alreadyYours: "The subscription is already on your account: there is nothing to move."
        case .cannotMove(.limit):
            "Nothing was moved: the subscription has moved between accounts too often recently to move again now."
        case .cannotMove:
            "Nothing was moved: the subscription now stays with the account that holds it."
        }
    }
}

extension SubscriptionCoordinator {
    /// Asks the server again where the receipt's purchases are, for the account signed in: whether the move the
    /// question offers can still be made. A fault, or no receipt, leaves the question standing.
    public func recheckMoveQuestion(completion: @escaping (MoveQuestionVerdict) -> Void) {
        guard let account = storage.accountSession?.identityId else { return completion(.signedOut) }
        guard let receipt = store.appReceipt else { return completion(.stands) }
        log("the question to move a subscription held elsewhere is on screen: asking the server again")
        backend.inspectRestore(receipt) { [self] result in
            guard storage.accountSession?.identityId == account else { return completion(.signedOut) }
            guard case .success(let purchases) = result else {
                log("the server could not say again: the question stands, and the answer's restore judges the move")
                return completion(.stands)
            }
            let verdict = Self.moveVerdict(purchases)
            if verdict != .stands { log("the move the question offers can no longer be made: \(verdict)") }
            completion(verdict)
        }
    }

    /// Active by Apple's word, as the server reads the receipt: someone else's that may move here keeps the question.
    static func moveVerdict(_ purchases: [RestorablePurchase]) -> MoveQuestionVerdict {
        let active = purchases.filter(\.active)
        if active.contains(where: { $0.owner != "you" && $0.restorable }) { return .stands }
        if active.isEmpty { return .ended }
        if let why = refusalHere(active) { return .cannotMove(why) }
        return .alreadyYours
    }
}
