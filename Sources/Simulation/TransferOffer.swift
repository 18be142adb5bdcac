import AppFlow
import SimKernel
import Subscriptions

/// Seed 000: "When a reader who subscribed without an account logs in later, the app asks whether to transfer the
/// subscription to that account." Judged as the app takes a sign-in's success on a phone holding an anonymous
/// identity with levels the backend last said it gives: next is the question, or the move itself where the reader signed
/// in from the owner's request for an account (invariant 23); or, where the sign-in's answer said the server refuses
/// the move for the move limit, the reader told when it can be made (a "Move it?" the server refuses is untrue: whether
/// the limit holds is invariant 9's, `ToldCheck.moveWaitViolation`).
struct TransferOffer {
    let anonymousId: String
    let levels: Set<String>
    /// What the sign-in's answer said of the move: refused for the limit until then.
    let refusedUntil: SimInstant?

    /// `anonymous`: the phone's stored identity, read only for a sign-in. `heard`: the levels of the backend's newest
    /// word the phone heard about an identity.
    init?(_ event: AppEvent, anonymous: @autoclosure () -> AnonymousIdentity?, heard: (String) -> Set<String>) {
        guard case .accountFinished(.signedIn(_, let refusedUntil)) = event, let anonymous = anonymous() else {
            return nil
        }
        self.refusedUntil = refusedUntil
        // What the phone holds for it and the backend's newest word also gave: a level the phone learned it lost from
        // an answer that names no identity (content refused) is not one it should offer to move.
        let levels = heard(anonymous.id).intersection(anonymous.levels.map(\.rawValue))
        guard !levels.isEmpty else { return nil }
        anonymousId = anonymous.id
        self.levels = levels
    }

    /// What is wrong with how the sign-in left the reader; nil when they are asked, or the move is on its way.
    func broken(after state: AppState, effects: [AppEffect]) -> String? {
        if state.route == .transferPrompt(.anonymousToAccount) || effects.contains(.transferAnonymousPurchases) {
            return nil
        }
        if let refusedUntil, ([state.alert] + state.alertsWaiting).contains(moveWaitsForTheLimit(refusedUntil)) {
            return nil
        }
        return "a reader holding \(WorldReading.list(levels)) without an account (anonymous \(anonymousId)) signed in "
            + "and was not asked to move the subscription to the account"
    }
}
