import AppFlow
import WhiteLabel

/// The tour after the purchase: accounts, the profile, the store's management sheet and an alert.
extension TourWalk {
    static let email = "reader@example.com"
    static let password = "correct horse"

    /// Account-required apps ask right after the purchase, and move the subscription to the new account unasked.
    func accountRequired() {
        guard world.screen.id == .accountRequired else { return }
        keep("Account required after subscribing: the payment is done, an account keeps it")
        logInForm()
        signUpForm()
        settle()
        dismissAlert()
    }

    /// In other apps the forms are reached from the profile, and a transfer prompt follows the signup.
    func accountScreens() {
        guard !world.appState.isSignedIn else { return }
        backToFeed()
        guard choose("Profile") else { return }
        logInForm()
        signUpForm()
        transferPrompt()
    }

    /// The login form, filled in, then left with Esc for the signup form.
    private func logInForm() {
        guard choose("Log in") else { return }
        fillForm()
        keep("Log in: email, and the password masked")
        world.send(.back)
    }

    private func signUpForm() {
        guard choose("Create an account") else { return }
        fillForm()
        keep("Sign up: email, and the password masked")
        choose("Create account")
    }

    private func fillForm() {
        type(Self.email)
        world.send(.select)
        type(Self.password)
    }

    /// Asked when a subscription bought without an account could move to it; account-required apps move it unasked.
    private func transferPrompt() {
        if world.screen.id == .transferPrompt {
            keep("After signing up: move this phone's subscription to the account?")
            choose("Move it")
        }
        dismissAlert()
    }

    /// The profile with its renewal date, the store's management sheet, and an alert.
    func subscriptionScreens() {
        backToFeed()
        guard choose("Profile") else { return }
        keep("The profile: who the reader is, the access levels and the renewal date")
        if choose("Manage my subscription") {
            if world.screen.id == .parentalGate {
                keep("The parental gate before Apple's manage sheet, where a switch to a higher plan charges")
                type(answer(to: world.screen))
                choose("Continue")
            }
            keep("Manage my subscription: Apple's sheet with the plan and the next renewal")
            if highlight(doing: .back) {
                world.send(.select)
                settle()
            }
        }
        choose("Restore purchase")
        keep("An alert: what a restore found, over the profile")
    }
}
