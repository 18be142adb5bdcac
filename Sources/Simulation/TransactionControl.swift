/// The Transaction Manager's per-row controls: what can be done to one transaction or held payment.
public enum TransactionControl: String, Sendable, CaseIterable {
    case refund
    case revoke
    case expire
    case approve
    case decline
    case resolveInterrupted = "resolve-interrupted"
}

extension World {
    /// Does `control` to the transaction or held payment `id`; false (and a line on the timeline) when
    /// it names nothing of the reader's that the control applies to.
    @discardableResult
    public func perform(_ control: TransactionControl, on id: String) -> Bool {
        switch control {
        case .refund: refund(transactionId: id)
        case .revoke: revoke(transactionId: id)
        case .expire: expire(transactionId: id)
        case .approve: answerAskToBuy(id, approve: true)
        case .decline: answerAskToBuy(id, approve: false)
        case .resolveInterrupted: resolveInterruptedPurchase(id)
        }
    }
}
