import AppFlow

/// Invariant 21, the owner's "account required after subscribing" (seed 000: "the reader is invited to log in or
/// sign up, and the subscription moves to the account"; seed 001: "the anonymous purchase can still finish first.
/// The app then presents login or registration"): once the world settled, an app whose owner requires an account
/// shows a reader holding levels under the phone's anonymous identity nothing but that request, or the form
/// opened from it. A purchase may finish first; the reader is never left reading as a guest. And the request is
/// only for such a reader: one without an account who holds nothing is not kept on it, and one signed in is offered
/// no log-in or sign-up, in any app (after a move that failed, session 23's seed 3469 logged in as another account
/// over the first from the request).
enum AccountRequiredCheck {
    static func violations(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard context.settled, world.isAppRunning else { return [] }
        // Only these screens have such a choice (`ScreenBuilder`): the others are not built to look for one (a build
        // each step a signed-in phone was elsewhere). Debug builds check the list.
        assert(
            Self.offersAccountForm(world.screenID)
                || !world.screen.rows.contains { $0.choice.map(Self.opensAccountForm) ?? false },
            "\(world.screenID) offers a log-in or sign-up: add it to `offersAccountForm`")
        if case .account(let email) = world.appState.access.identity, Self.offersAccountForm(world.screenID),
            let offer = world.screen.rows.first(where: { $0.choice.map(Self.opensAccountForm) ?? false })
        {
            return [
                InvariantViolation(
                    .accountRequired,
                    "\(world.deviceName) is signed in as \(email) and \(world.screen.id.rawValue) offers \"\(offer.text)\""
                )
            ]
        }
        guard world.config.app.account.mode == .requiredAfterSubscribing else { return [] }
        let state = world.appState
        let anonymousSubscriber: Bool
        switch state.access.identity {
        case .account: return []
        case .anonymous: anonymousSubscriber = state.access.isSubscriber
        case .none: anonymousSubscriber = false
        }
        let requested = state.stack.contains(.accountRequired)
        if anonymousSubscriber && !requested {
            return [
                InvariantViolation(
                    .accountRequired,
                    "\(world.deviceName) holds \(WorldReading.list(context.phoneLevels)) without an account and shows "
                        + "\(world.screen.id.rawValue), not the request to log in or sign up")
            ]
        }
        // The request is for a subscriber: a reader whose subscription ended is not held on it (seed 001: no account
        // forced "before the user has committed to subscribing", nor after the subscription is gone).
        if !anonymousSubscriber && state.route == .accountRequired {
            return [
                InvariantViolation(
                    .accountRequired,
                    "\(world.deviceName) holds no subscription but is kept on the request to log in or sign up")
            ]
        }
        return []
    }

    /// Whether the screen can have a choice that opens or submits the log-in or sign-up form.
    private static func offersAccountForm(_ screen: ScreenID) -> Bool {
        switch screen {
        case .accountRequired, .paywall, .profile, .login, .signup: true
        default: false
        }
    }

    private static func opensAccountForm(_ choice: Choice) -> Bool {
        switch choice {
        case .openLogin, .openSignup, .submitLogIn, .submitSignUp: true
        default: false
        }
    }
}
