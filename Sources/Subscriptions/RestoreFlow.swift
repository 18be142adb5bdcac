/// Restore as reconciliation: nothing to do when levels are active; the receipt (refreshed once
/// if missing); the backend decides what moves; the outcome in the reader's terms.
extension SubscriptionCoordinator {
    /// Restores the Apple ID's purchases to the current identity (a new anonymous one for a guest with none).
    /// `confirmMoveFromAccount` is the reader's yes to moving a purchase linked to another account.
    public func restore(confirmMoveFromAccount: Bool = false, completion: @escaping (RestoreOutcome) -> Void) {
        if access.isSubscriber && !confirmMoveFromAccount {
            log("restore: levels already active, nothing to do")
            return completion(.alreadySubscribed)
        }
        receipts.receipt { [self] receipt in
            guard let receipt else {
                return completion(.failed(message: "The App Store could not be reached. Please try again."))
            }
            backend.restore(receipt, confirmMoveFromAccount: confirmMoveFromAccount) { [self] result in
                switch result {
                case .success(let answer):
                    save(answer.access)
                    if let refusal = answer.refusal {
                        completion(outcome(forRefusal: refusal))
                    } else {
                        completion(answer.restored.isEmpty ? .nothingToRestore : .restored)
                    }
                case .failure(.refused(_, let code)):
                    completion(outcome(forRefusal: code))
                case .failure:
                    completion(.failed(message: "Your purchases could not be restored. Please try again later."))
                }
            }
        }
    }

    /// A signed-in reader may be asked to move another account's purchase; a guest may not.
    private func outcome(forRefusal code: String) -> RestoreOutcome {
        if code == "restore_needs_confirmation" && storage.accountSession != nil {
            return .confirmMoveFromAnotherAccount
        }
        return RestoreOutcome.refusal(code)
    }
}
