import BackendSim
import SimKernel

/// Invariants 1 and 10 read from the backend's side, once the world settled (`StepContext.settled`: nothing due, every
/// answer arrived) with the app running: the backend alone decides access, and the phone shows what it decides.
///
/// (a) The phone shows every level of the newest answer it heard about its identity (and, signed in, about the guest
/// it keeps beside the account), unless a fault since that answer may have taken them off (an ask at the levels' end
/// that failed). Invariant 1 holds the phone to no more than that answer; this holds it to no less: an answer whose
/// levels the app did not take left a paying reader locked out, and no check saw it while the ledger was right.
///
/// (b) After the app started or came back (it asks the server then), with no fault since, the phone shows exactly
/// what the backend grants those identities now. What changed on the server after the app's answer in this step (a
/// notification, a move by another phone) is the documented staleness: nothing tells a phone of a change it did not
/// ask for until it asks again. A change before the step is not: the launch's or the foreground's ask must bring it
/// (an app that kept its levels on returning showed a refunded subscription for the rest of its period, and invariant
/// 1, which compares with the newest answer heard, could not see an answer never asked for).
enum ShownLevelsCheck {
    static func violations(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard context.settled, world.isAppRunning else { return [] }
        return InvariantViolation.checking(.payingKeepsAccess) {
            let ids = try shownIdentities(world)
            guard !ids.isEmpty else { return [] }
            return untaken(ids, context) + (try notAsGranted(ids, context))
        }
    }

    /// The identities whose levels the phone shows: the one on screen, and signed in, the phone's guest too.
    static func shownIdentities(_ world: World) throws -> [String] {
        var ids: [String] = []
        switch world.appState.access.identity {
        case .none: return []
        case .anonymous(let id): ids.append(id)
        case .account(let email):
            if let id = try world.backend.ledger.identityId(email: email) { ids.append(id) }
            if let guest = world.device.storage.anonymousIdentity?.id { ids.append(guest) }
        }
        return ids
    }

    /// (a) Levels the phone's newest answer gave, with no fault since it, that the phone does not show.
    private static func untaken(_ ids: [String], _ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        var found: [InvariantViolation] = []
        for id in ids {
            guard let said = world.words.saidAt(on: world.deviceName, identityId: id),
                !context.faultSince(SimInstant(milliseconds: said))
            else { continue }
            let missing = world.words.levels(on: world.deviceName, identityId: id).subtracting(context.phoneLevels)
            guard !missing.isEmpty else { continue }
            found.append(
                InvariantViolation(
                    .payingKeepsAccess,
                    "\(world.deviceName) shows \(WorldReading.list(context.phoneLevels)), without "
                        + "\(WorldReading.list(missing)) that the backend's newest answer about \(id) (at "
                        + "\(SimInstant(milliseconds: said))) gave it"))
        }
        return found
    }

    /// (b) After a launch or a return to the foreground, the phone's levels against the backend's grants now.
    private static func notAsGranted(_ ids: [String], _ context: StepContext) throws -> [InvariantViolation] {
        let world = context.world
        guard context.step == .restartApp || context.step == .foreground, !context.faultSince(context.began) else {
            return []
        }
        let ledger = world.backend.ledger
        var granted: Set<String> = []
        for id in ids {
            // Since the app's answer in this step, or since the step began when it heard none in it.
            let said = world.words.saidAt(on: world.deviceName, identityId: id)
            let heard = said.map { SimInstant(milliseconds: $0 + 1) } ?? context.began
            if try changed(id, since: max(heard, context.began), ledger) { return [] }
            granted.formUnion(try world.backend.levels(of: id))
        }
        let shown = context.phoneLevels
        let who = ids.joined(separator: " and ")
        let (missing, extra) = (granted.subtracting(shown), shown.subtracting(granted))
        let granting = "the backend grants \(who) \(WorldReading.list(granted))"
        // Fewer levels than granted is a paying reader's loss (10); more is access without the backend's word (1).
        let found: [(Bool, Invariant, String)] = [
            (
                !missing.isEmpty, .payingKeepsAccess,
                "\(granting), but \(world.deviceName) shows \(WorldReading.list(shown))"
            ),
            (
                !extra.isEmpty, .backendsWord,
                "\(world.deviceName) shows \(WorldReading.list(extra)), which the backend no longer grants \(who) (it "
                    + "grants \(WorldReading.list(granted)))"
            ),
        ]
        return found.filter(\.0).map { InvariantViolation($0.1, "after the app started or came back, " + $0.2) }
    }

    /// Whether, since `instant`, the ledger moved a purchase to or from `id`, or changed one `id` owns.
    private static func changed(_ id: String, since instant: SimInstant, _ ledger: BackendLedger) throws -> Bool {
        if try ledger.moves().contains(where: { $0.at >= instant && ($0.to == id || $0.from == id) }) { return true }
        let changed = try ledger.purchasesChanged(since: instant)
        guard !changed.isEmpty else { return false }
        return try ledger.purchases(ownedBy: id).contains { changed.contains($0.originalTransactionId) }
    }
}
