import AppFlow
import StoreSim
import Subscriptions

/// The alerts telling a charge (`Alert.charge == .made`: "Purchase complete", a charge that gave no access) the app
/// told and the reader has not dismissed, shown or waiting their turn, kept on the phone as they change. Held only in
/// the app's state, a quit or a kill before the reader saw one lost it: an offer code redeemed on the App Store was
/// told behind the log-in's "Sorry", the app restarted, and the charge was never told (default fuzz 5454). The next
/// launch tells them again, as Apple keeps a parent's decline no app heard for the phone's next launch
/// (`DeclinesUnheard`).
protocol ChargeAlertSlot: AnyObject {
    var chargeAlertsUnseen: [Alert] { get set }
}

/// A phone's storage: the subscription service's, its receipt, and the app's charge alerts unseen.
typealias PhoneStorage = DeviceStorage & ReceiptSlot & ChargeAlertSlot

extension AppState {
    /// The alerts up that tell a charge, shown or next in turn.
    var chargeAlertsUp: [Alert] {
        ([self.alert].compactMap { $0 } + self.alertsWaiting).filter { $0.charge?.tellsTransaction == true }
    }
}
