/// What choosing a row does. A screen lists its choices in the order its selectable rows appear,
/// so the reducer and the view agree on what the highlighted row means.
enum Choice: Equatable {
    case openContent(id: String)
    case subscribe(fromContent: String?)
    case buy(offerId: String)
    case confirmPayment
    case cancelPayment
    case openProfile
    case restore
    case openLogin(AccountForm.Purpose)
    case openSignup(AccountForm.Purpose)
    /// A text field: Enter moves to the next row, characters go into it.
    case edit(TextField)
    case answerGate
    case submitLogIn
    case submitSignUp
    case acceptTransfer(TransferPrompt)
    case declineTransfer
    case logOut
    case manageSubscription
    case setAutoRenew(Bool)
    /// "Switch to …" on the store's sheet: another product of the subscription's group.
    case changePlan(productId: String)
    case done
}
