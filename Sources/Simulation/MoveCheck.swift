import AppFlow
import BackendSim
import SimKernel

/// Invariant 12, moves only as asked: a purchase changes owner (restore, transfer, a purchase's check)
/// no more often than the reader asked for that kind of move since the purchase was first owned. The
/// same action again at once (`without waiting`) is one act, as a double tap is one wish. An act lasts until
/// its answers have arrived: one asked without waiting may move a purchase charged after it was asked.
/// A transfer or a restore goes to the account that asked for it: a reader who accepts moving the phone's
/// subscription, or taps Restore, signed in, asks it for the account signed in then, not for one that signs in
/// while the request is on its way (the phone's guest may still get it: the session can end meanwhile); a guest
/// who taps Restore asks it for the guest, never for an account.
struct MoveCheck {
    enum Kind: String {
        case restore, transfer, purchase
    }

    /// `endedAt` nil: the act's answers are still on their way. `asker`: the account a transfer or a restore was
    /// asked for (`phonesGuest` for a guest's restore: no account), nil when any (a sign-in that moves the phone's
    /// subscription to whoever signs in).
    private var acts: [(kind: Kind, began: SimInstant, endedAt: SimInstant?, asker: String?)] = []
    /// The asker of a restore a guest tapped: it may move purchases to no account.
    private static let phonesGuest = ""
    /// The kinds of move the running step asks for, and for whom.
    private var asked: [(kind: Kind, asker: String?)] = []
    private var stepBegan = SimInstant.worldStart
    private var previous: (step: MonitoredStep, waited: Bool)?
    /// Moves in the ledger before the monitor started are not the session's; nil when they could not be read.
    private let movesBefore: Int?
    /// Who paid holds what the backend was told of.
    private var whoPaid = WhoPaidCheck()

    /// The backend applied a report naming `transactionId` (`WorldEvent.purchaseReported`).
    mutating func reported(_ transactionId: String, at time: SimInstant) { whoPaid.reported(transactionId, at: time) }

    init(world: World) {
        movesBefore = try? world.backend.ledger.moves().count
    }

    mutating func willRun(_ step: MonitoredStep, waits: Bool, world: World) {
        let again = previous.map { $0.step == step && !$0.waited } ?? false
        // Only an app that requires an account after subscribing moves the subscription on a sign-in; elsewhere
        // signing in offers the move, and accepting it is the ask.
        let signInMoves = world.config.app.account.mode == .requiredAfterSubscribing
        let signedIn = world.device.storage.accountSession?.identityId
        stepBegan = world.scheduler.now
        asked =
            again
            ? []
            : Self.kinds(step).compactMap { kind in
                switch (kind, step) {
                case (.transfer, .reader(.logIn)), (.transfer, .reader(.signUp)): signInMoves ? (kind, nil) : nil
                // A guest's restore is the guest's: an account signed in since takes it by a transfer (fuzz seed 4151).
                case (.restore, _): (kind, signedIn ?? Self.phonesGuest)
                case (.transfer, _): (kind, signedIn)
                default: (kind, nil)
                }
            }
        previous = (step, waits)
    }

    mutating func check(_ context: StepContext) -> [InvariantViolation] {
        let now = context.world.scheduler.now
        acts += asked.map { ($0.kind, stepBegan, nil, $0.asker) }
        asked = []
        if context.settled {
            for index in acts.indices where acts[index].endedAt == nil { acts[index].endedAt = now }
        }
        let asked = InvariantViolation.checking(.movesOnlyAsAsked) {
            guard let movesBefore else { throw MovesUnread() }
            return try violations(context, since: movesBefore)
        }
        return asked + InvariantViolation.checking(.movesOnlyAsAsked) { try whoPaid.violations(context) }
    }

    /// The moves before the session could not be counted: every later count would be wrong.
    private struct MovesUnread: Error, CustomStringConvertible {
        var description: String { "the moves before the session were not read" }
    }

    private func violations(_ context: StepContext, since movesBefore: Int) throws -> [InvariantViolation] {
        let moves = try context.world.backend.ledger.moves()
        guard moves.count > movesBefore else { return [] }
        // A purchase is the reader's from its first charge; a move before it was bought was asked of another.
        var firstOwned: [String: SimInstant] = [:]
        let world = context.world
        let familyShared = world.appleIds.flatMap { world.store.familySharedTransactions(appleId: $0) }
        for record in context.charged + familyShared
        where firstOwned[record.originalTransactionIdentifier] == nil {
            firstOwned[record.originalTransactionIdentifier] = record.purchaseDate
        }
        var counted: [String: Int] = [:]
        var found: [InvariantViolation] = []
        for move in moves[movesBefore...] where move.from != nil {
            if move.via == .purchase, let unpaid = Self.notThePayer(move, context) { found.append(unpaid) }
            if let broken = try Self.againstPolicy(move, world) { found.append(broken) }
            let kind = Self.kind(of: move.via)
            let since = firstOwned[move.originalTransactionId] ?? move.at
            let eligible = acts.filter { $0.kind == kind && ($0.endedAt.map { $0 >= since } ?? true) }
            // To an account none of the acts running then asked for (a guest may get what an account asked: its
            // session can end meanwhile).
            let running = eligible.filter { $0.began <= move.at && ($0.endedAt.map { $0 >= move.at } ?? true) }
            if kind != .purchase, !running.isEmpty,
                !running.contains(where: { $0.asker == nil || $0.asker == move.to }),
                try world.backend.ledger.identity(move.to)?.kind == .account
            {
                let named = running.compactMap { $0.asker.map { $0 == Self.phonesGuest ? "the phone's guest" : $0 } }
                let askers = Set(named).sorted().joined(separator: ", ")
                found.append(
                    InvariantViolation(
                        .movesOnlyAsAsked,
                        "\(move.originalTransactionId) moved by \(kind.rawValue) to \(move.to), "
                            + "but the \(kind.rawValue) was asked for \(askers)"))
            }
            let key = "\(move.originalTransactionId) \(kind.rawValue)"
            counted[key, default: 0] += 1
            let allowed = eligible.count
            guard counted[key, default: 0] == allowed + 1 else { continue }
            found.append(
                InvariantViolation(
                    .movesOnlyAsAsked,
                    "\(move.originalTransactionId) moved by \(kind.rawValue) \(allowed + 1) time\(allowed == 0 ? "" : "s") "
                        + "(now to \(move.to)) but the reader asked for \(allowed)"))
        }
        return found
    }

    /// Seed 000's restore policies, judged in the ledger's moves, not only in what the reader is told: under
    /// keep-with-original-owner a restore never takes a purchase from the identity holding it ("Restore does not move
    /// it"), under transfer-if-owner-inactive never one that gave its owner access then. A server made to ignore the
    /// policy held every invariant in 2,400 fuzz sessions (session 35). A transfer of the phone's guest to the account
    /// signing in is no restore: the policy does not govern it.
    private static func againstPolicy(_ move: OwnershipMove, _ world: World) throws -> InvariantViolation? {
        guard move.via == .restore, let from = move.from, from != move.to else { return nil }
        let policy = world.config.backend.restorePolicy ?? .transfer
        switch policy {
        case .transfer: return nil
        case .keepWithOriginalOwner: break
        case .transferIfOwnerInactive:
            guard let purchase = try world.backend.ledger.purchase(move.originalTransactionId),
                purchase.isActive(at: move.at)
            else { return nil }
        }
        return InvariantViolation(
            .movesOnlyAsAsked,
            "\(move.originalTransactionId) moved by restore from \(from) to \(move.to), but the owner's restore policy is "
                + "\(policy.rawValue)")
    }

    /// Seed 003: a purchase moves by a new purchase only to the customer its appAccountToken names — "the
    /// subscription follows who paid"; a renewal, or a purchase with no token, moves nothing.
    private static func notThePayer(_ move: OwnershipMove, _ context: StepContext) -> InvariantViolation? {
        let world = context.world
        let familyShared = world.appleIds.flatMap { world.store.familySharedTransactions(appleId: $0) }
        let payers = Set(
            (context.charged + familyShared).filter {
                $0.originalTransactionIdentifier == move.originalTransactionId && $0.transactionReason != "RENEWAL"
            }.compactMap { $0.appAccountToken?.lowercased() })
        guard !payers.contains(world.backend.appAccountToken(for: move.to)) else { return nil }
        return InvariantViolation(
            .movesOnlyAsAsked,
            "\(move.originalTransactionId) moved by purchase to \(move.to), whom no purchase of it names as who paid")
    }

    private static func kind(of via: OwnershipMove.Via) -> Kind {
        switch via {
        case .restore: .restore
        case .transfer: .transfer
        case .purchase: .purchase
        }
    }

    /// What a step may rightly move: a restore (also a signed-in reader's purchase, restored instead of
    /// charged), a transfer on signing in or accepting it (also a signed-in reader's purchase, of the phone's own
    /// guest's subscription a restore would not move: seed 000's "one bought earlier without an account"), a
    /// purchase's check when Apple's answer arrives.
    private static func kinds(_ step: MonitoredStep) -> [Kind] {
        switch step {
        case .reader(.restore): [.restore]
        case .reader(.acceptTransfer): [.restore, .transfer]
        case .reader(.logIn), .reader(.signUp): [.transfer]
        case .reader(.selectOffer), .reader(.doubleTapOffer), .reader(.subscribe): [.restore, .transfer, .purchase]
        case .reader(.confirmPayment), .paymentReleased, .restartApp, .foreground: [.purchase]
        default: []
        }
    }
}
