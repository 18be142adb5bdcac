/// A charge alert the last launch told and the reader never saw, told again at this launch (`ChargeAlertsUnseen`).
extension Alert {
    static let endedSinceTitle = "Subscription not active"

    /// The same charge, once Apple refunded or ended its subscription between the quit and this launch, or its renewal
    /// failed past the grace period: its words ("Your subscription is active") would no longer be true, so it says the
    /// charge and that the subscription is not active now.
    public var endedSinceTold: Alert {
        var told = self
        told.firstTold = firstTold ?? Words(title: title, message: message)
        told.title = Self.endedSinceTitle
        told.message =
            charge == .trialStarted
            ? "Before the app closed, a free trial of a subscription started. It is not active now."
            : "Before the app closed, the App Store charged this Apple ID for a subscription. It is not active now."
        return told
    }

    /// The same charge, Apple entitling its subscription again (a billing issue recovered): told in the words
    /// it was first told, where a launch told it not active. "It is not active now" stayed, told again at every
    /// launch over the articles the recovered subscription unlocked (found-by-hand/521).
    public var activeSinceTold: Alert {
        guard let first = firstTold else { return self }
        var told = self
        told.title = first.title
        told.message = first.message
        told.firstTold = nil
        return told
    }
}
