/// What choosing a row does. Each selectable row carries its own (`Row.choice`), so the reducer, the
/// view and `World.perform` agree on what a row means wherever a screen puts it.
public enum Choice: Equatable, Sendable {
    case openContent(id: String)
    case subscribe(fromContent: String?)
    case buy(offerId: String)
    case confirmPayment
    case cancelPayment
    case openProfile
    case restore
    case openLogin(AccountForm.Purpose)
    case openSignup(AccountForm.Purpose)
    /// A text field: characters go into it; Enter moves to the next field, or in the form's last one does what the
    /// form's button does (`entered(at:among:)`).
    case edit(TextField)
    case answerGate
    case submitLogIn
    case submitSignUp
    case acceptTransfer(TransferPrompt)
    case declineTransfer
    case logOut
    case manageSubscription
    /// Auto-renew of the subscription on `productId` (an Apple ID runs one per group): its own row on Apple's sheet.
    case setAutoRenew(Bool, productId: String)
    /// "Switch to …" on the store's sheet: another product of the subscription's group.
    case changePlan(productId: String)
    case done
}

extension Choice {
    /// Whether choosing it can move money or change what Apple charges: paying on Apple's sheet (or agreeing to a
    /// raised price), auto-renew, another plan. Apple's sheets never open on such a choice (session 26: a double
    /// Enter on an offer confirmed the sheet that came up under the second press).
    public var movesMoney: Bool {
        switch self {
        case .confirmPayment, .setAutoRenew, .changePlan: true
        default: false
        }
    }
}

extension Choice {
    /// What Enter on the `index`th of a screen's `choices` does. In a text field followed by another, it moves to it
    /// (the `.edit` itself); in a form's last field, it is the button that follows, as a form's Return key submits it
    /// (iOS's Go, a web form's Enter): the gate's answer typed and Enter answered nothing and landed on "Continue",
    /// so a reader pressing on onto Apple's sheet found it open on Cancel (session 36's tester). Elsewhere, the choice.
    public static func entered(at index: Int, among choices: [Choice]) -> Choice {
        guard case .edit = choices[index], let next = choices.dropFirst(index + 1).first else { return choices[index] }
        if case .edit = next { return choices[index] }
        return next
    }
}
