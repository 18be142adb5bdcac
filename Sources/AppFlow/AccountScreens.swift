import SimKernel

extension ScreenBuilder {
    /// Log in: email, password (masked), and the way to sign up instead.
    static func login(_ purpose: AccountForm.Purpose, _ state: AppState) -> Built {
        form(
            id: .login, heading: "Log in", state: state, submit: ("Log in", .submitLogIn),
            other: ("Create an account", .openSignup(purpose)))
    }

    /// Its button marked busy while the sign-up it sent is on its way, as a real app disables it (`AccountForm.sent`).
    static func signup(_ purpose: AccountForm.Purpose, _ state: AppState) -> Built {
        form(
            id: .signup, heading: "Create an account", state: state,
            submit: (state.form.awaitsAnswer ? "Creating account…" : "Create account", .submitSignUp),
            other: ("I already have an account", .openLogin(purpose)))
    }

    private static func form(
        id: ScreenID, heading: String, state: AppState, submit: (String, Choice), other: (String, Choice)
    ) -> Built {
        let rows = [
            Row(.heading, heading), Row(.spacer),
            Row(.field(masked: false), "Email", value: state.form.email, choice: .edit(.email)),
            Row(.field(masked: true), "Password", value: state.form.password, choice: .edit(.password)),
            Row(.spacer), Row(.button, submit.0, choice: submit.1), Row(.button, other.0, choice: other.1),
        ]
        let screen = ScreenModel(
            id: id, title: state.app.name, rows: rows,
            keys: [KeyHint("type", "fill in"), KeyHint("↑↓", "move"), KeyHint("Enter", "next"), KeyHint("Esc", "back")])
        return Built(screen: screen)
    }

    /// The parental gate: a question a child cannot answer at a glance.
    static func parentalGate(_ state: AppState) -> Built {
        var draws = state.gateDraws
        let gate = state.gate ?? ParentalGate(offerId: "", draws: &draws, previous: nil)
        let need = gate.purpose == .manageSubscription ? "Changing a subscription" : "Buying"
        let rows = [
            Row(.heading, "Ask a grown-up"), Row(.text, "\(need) needs a grown-up. \(gate.question)"),
            Row(.field(masked: false), "Answer", value: gate.answer, choice: .edit(.gateAnswer)), Row(.spacer),
            Row(.button, "Continue", choice: .answerGate),
        ]
        let screen = ScreenModel(
            id: .parentalGate, title: state.app.name, rows: rows,
            keys: [
                KeyHint("type", "answer"), KeyHint("↑↓", "move"), KeyHint("Enter", "continue"), KeyHint("Esc", "back"),
            ])
        return Built(screen: screen)
    }

    /// Asks before a subscription moves to the account.
    static func transferPrompt(_ prompt: TransferPrompt) -> Built {
        let question =
            switch prompt {
            case .anonymousToAccount:
                "You subscribed on this phone without an account. Move the subscription to your account, so it follows you to every device?"
            case .fromAnotherAccount:
                "This subscription is linked to another account. Move it to the account you are signed in with?"
            case .heldElsewhere:
                "This Apple ID already pays for this subscription, held by another account or by a phone used without one. Move it to the account you are signed in with?"
            }
        let rows = [
            Row(.heading, "Move your subscription?"), Row(.text, question), Row(.spacer),
            Row(.button, "Move it", choice: .acceptTransfer(prompt)), Row(.button, "Not now", choice: .declineTransfer),
        ]
        let screen = ScreenModel(
            id: .transferPrompt, title: "Subscription", rows: rows,
            keys: [KeyHint("↑↓", "move"), KeyHint("Enter", "choose"), KeyHint("Esc", "not now")])
        return Built(screen: screen)
    }

    /// "Account required after subscribing": the payment is done; now an account keeps it.
    /// Signed in while the move has not happened (it failed, or was refused: three moves in 30 days): the account
    /// the owner requires is there, so the screen offers the move again, reading on with the subscription on this
    /// phone (the profile offers the move later), or a log-out to use another; never a log-in over the account.
    static func accountRequired(_ state: AppState) -> Built {
        var rows = [Row(.heading, "One more step")]
        if case .account(let email) = state.access.identity, let until = state.access.moveRefusedUntil {
            // The server refuses the move for the limit until then: no "Move" it would refuse.
            rows += [
                Row(
                    .text,
                    "Your subscription is on this phone, not on \(email) yet. It has moved too often recently (at most "
                        + "\(moveLimitWords)), so it can move to your account from \(until.dateDescription)."),
                Row(.spacer), Row(.button, "Not now", choice: .declineTransfer),
                Row(.button, "Log out", choice: .logOut),
            ]
        } else if case .account(let email) = state.access.identity {
            rows += [
                Row(.text, "Your subscription is on this phone, not on \(email) yet. Move it to keep it safe."),
                Row(.spacer),
                Row(.button, "Move my subscription to my account", choice: .acceptTransfer(.anonymousToAccount)),
                Row(.button, "Not now", choice: .declineTransfer), Row(.button, "Log out", choice: .logOut),
            ]
        } else {
            rows += [
                Row(
                    .text,
                    "Thank you for subscribing! \(state.app.name) needs an account to keep your subscription safe."),
                Row(.spacer), Row(.button, "Create an account", choice: .openSignup(.accountRequired)),
                Row(.button, "Log in", choice: .openLogin(.accountRequired)),
            ]
        }
        var keys = [KeyHint("↑↓", "move"), KeyHint("Enter", "choose")]
        if state.isSignedIn { keys.append(KeyHint("Esc", "not now")) }
        let screen = ScreenModel(id: .accountRequired, title: state.app.name, rows: rows, keys: keys)
        return Built(screen: screen)
    }
}
