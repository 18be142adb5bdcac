import AppFlow
import BackendSim
import SimKernel
import Subscriptions

/// Invariant 9 for the move of the phone's own subscription to the account signed in ("Move my subscription to my
/// account", "Move it" on the sign-in's question, the owner's request for an account): offered only where
/// `POST /v1/transfers` would make it, not refuse it whole for the move limit; and "it can move from DATE" told only
/// where it would refuse it so (session 33: the sign-in asked "Move it?" of a subscription moved 3 times in 30 days,
/// and the server refused the reader's "Move it").
extension ToldCheck {
    /// Until when the server's transfer would refuse the guest's purchases for the move limit at `instant`, by the
    /// ledger's moves up to then (`Backend.transferRefusedUntil`): every active one moved the limit's times in the
    /// window. Nil when it would move one, or the guest holds none.
    static func transferRefusedUntil(guest: String, at instant: SimInstant, _ world: World) throws -> SimInstant? {
        let ledger = world.backend.ledger
        let moves = try ledger.moves()
        let window = OwnershipRules.window.milliseconds
        var until: Int64?
        for purchase in try ledger.purchases(ownedBy: guest) where purchase.isActive(at: instant) {
            let times = moves.filter {
                $0.originalTransactionId == purchase.originalTransactionId && $0.at <= instant
                    && $0.at.milliseconds > instant.milliseconds - window
            }.map(\.at.milliseconds).sorted()
            guard times.count >= OwnershipRules.moveLimit else { return nil }
            let frees = times[times.count - OwnershipRules.moveLimit] + window
            until = min(until ?? frees, frees)
        }
        return until.map(SimInstant.init(milliseconds:))
    }

    /// A screen the reader reads now that offers to move the phone's subscription to the account, while the server
    /// would refuse the move for the limit.
    static func moveOfferViolation(_ world: World) throws -> InvariantViolation? {
        // Only these screens have the row (`ScreenBuilder`): the others are not built to look for it (a build each
        // step a signed-in phone was elsewhere, most of them for this check alone). Debug builds check the list.
        assert(
            Self.offersMove(world.screenID)
                || !world.screen.rows.contains { $0.choice == .acceptTransfer(.anonymousToAccount) },
            "\(world.screenID) offers the move: add it to `offersMove`")
        guard Self.offersMove(world.screenID), case .account(let email) = world.appState.access.identity,
            let offer = world.screen.rows.first(where: { $0.choice == .acceptTransfer(.anonymousToAccount) }),
            let guest = world.device.storage.anonymousIdentity?.id,
            let until = try transferRefusedUntil(guest: guest, at: world.scheduler.now, world)
        else { return nil }
        return InvariantViolation(
            .toldIsTrue,
            "\(world.deviceName) signed in as \(email) offers \"\(offer.text)\" on \(world.screen.id.rawValue), but the "
                + "server refuses the move for the limit (\(OwnershipRules.moveLimit) moves in "
                + "\(OwnershipRules.window)) until \(until.dateDescription)")
    }

    /// Whether the screen can offer "Move my subscription to my account" or the sign-in's "Move it" of it.
    private static func offersMove(_ screen: ScreenID) -> Bool {
        switch screen {
        case .profile, .accountRequired, .transferPrompt: true
        default: false
        }
    }

    /// "It can move to your account from DATE" (a sign-in's answer): the server refuses the move for the limit then.
    static func moveWaitViolation(_ outcome: ReaderOutcome, _ world: World) throws -> InvariantViolation? {
        guard case .account(.signedIn(_, let said?)) = outcome.told,
            let guest = world.device.storage.anonymousIdentity?.id,
            try transferRefusedUntil(guest: guest, at: outcome.at, world) == nil
        else { return nil }
        return InvariantViolation(
            .toldIsTrue,
            "\(world.deviceName) was told its subscription can move to the account only from \(said.dateDescription), "
                + "but the server would move it then")
    }
}
