import AppFlow

/// Invariant 9 for the question "Move it to the account you are signed in with?" while it is on screen (session 35):
/// told once, it was left up as the situation changed, and answered on a stale judgement. Once settled, it stands only
/// for a signed-in reader; and after the app became active with no fault since, only while the Apple ID still holds a
/// subscription that gives access by Apple's records (its own, or one the family shares with it).
enum MoveQuestionCheck {
    static func violations(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard context.settled, world.isAppRunning else { return [] }
        let state = world.appState
        guard case .transferPrompt(let prompt) = state.route, prompt != .anonymousToAccount, state.operation == nil
        else { return [] }
        guard state.isSignedIn else {
            return [
                InvariantViolation(
                    .toldIsTrue,
                    "\(world.deviceName) asks to move a subscription held elsewhere to the account signed in, but no "
                        + "account is signed in")
            ]
        }
        guard context.step == .foreground, !context.faultSince(context.began), !holdsAccess(world) else { return [] }
        return [
            InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName) became active still asking to move a subscription held elsewhere, but nothing "
                    + "\(world.appleId) pays for or is shared gives access now")
        ]
    }

    /// Whether a subscription of the phone's Apple ID gives access by Apple's records, its own or a family share.
    private static func holdsAccess(_ world: World) -> Bool {
        if world.store.subscriptions(appleId: world.appleId).contains(where: \.state.isEntitled) { return true }
        return world.store.familySharedTransactions(appleId: world.appleId).contains {
            world.store.shareGivesAccess($0.originalTransactionIdentifier)
        }
    }
}
