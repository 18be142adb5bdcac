/// What choosing a row does. A screen lists its choices in the order its selectable rows appear,
/// so the reducer and the view agree on what the highlighted row means.
enum Choice: Equatable {
    case openContent(id: String)
    case openPaywall(fromContent: String?)
    case buy(offerId: String)
    case confirmPayment
    case cancelPayment
}
