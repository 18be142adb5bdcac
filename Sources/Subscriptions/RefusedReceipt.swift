extension SubscriptionCoordinator {
    /// Sends `receipt` with `send`; when the server refuses it as no receipt of Apple's (`422 receipt_invalid`: its
    /// bytes altered on the phone, by a tweak on a jailbroken one or a damaged file), the app asks Apple for a fresh one
    /// and sends that once more, as Apple advises for a receipt that does not validate. A read the phone got wrong once
    /// told a reader Apple had charged that the payment could not be confirmed, and a restore that it failed, where the
    /// true receipt, a refresh away, gave the access (session 31). `done` hears the receipt last sent and its answer:
    /// a refusal again, or no fresh receipt, is the server's word on the first. `sendAgainIf` is asked before the fresh
    /// one goes: false, the refusal stands (it goes as whoever is signed in then, who may not be who asked).
    func sendRefreshingIfInvalid<Answer>(
        _ receipt: String, _ send: @escaping (String, @escaping (Result<Answer, BackendFailure>) -> Void) -> Void,
        sendAgainIf: @escaping () -> Bool = { true }, done: @escaping (String, Result<Answer, BackendFailure>) -> Void
    ) {
        send(receipt) { [self] result in
            guard case .failure(.refused(_, "receipt_invalid")) = result else { return done(receipt, result) }
            log("the server refused the receipt as not Apple's: asking Apple for a fresh one to send again")
            receipts.fresh { [self] answer in
                guard let fresh = answer.receipt else {
                    log("no fresh receipt came: the refusal stands")
                    return done(receipt, result)
                }
                guard sendAgainIf() else {
                    log("who is signed in changed since the receipt was sent: the refusal stands")
                    return done(receipt, result)
                }
                send(fresh) { done(fresh, $0) }
            }
        }
    }
}
