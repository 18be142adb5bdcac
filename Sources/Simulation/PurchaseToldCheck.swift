import AppFlow
import StoreSim

/// Invariant 9 of a charge told: "Purchase complete" says the reader bought something, so the transaction it speaks of
/// is a purchase (Apple's `transactionReason` PURCHASE), never a renewal Apple charged of a running subscription. A
/// billing recovery that reached the running app was told "Purchase complete" of a month the reader had not bought
/// again, only paid for as it renewed (session 35): it is "Subscription active again".
/// And words of money are held to what the transaction cost: an alert saying Apple charged (`Alert.charge == .made`)
/// speaks of a transaction with a price, never a free trial's start, and one saying it charged "again" of a
/// subscription an earlier period of which cost money (session 44's walk: a free week a parent approved told "The App
/// Store charged this Apple ID", its first charge after a billing issue "charged … again").
enum PurchaseToldCheck {
    static func violations(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard context.settled, world.isAppRunning else { return [] }
        let state = world.appState
        let shown = [state.alert].compactMap { $0 } + state.alertsWaiting
        for alert in shown where alert.charge == .made {
            guard let id = alert.transactionId,
                let record = context.charged.first(where: { $0.transactionIdentifier == id })
            else { continue }
            let says = "\(world.deviceName) shows \"\(alert.title)\": \(alert.message) of transaction \(id)"
            if alert.title == Alert.purchaseComplete, record.transactionReason == "RENEWAL" {
                return [
                    InvariantViolation(
                        .toldIsTrue,
                        "\(says), a renewal Apple charged of \(record.productIdentifier), not a purchase the reader made"
                    )
                ]
            }
            if record.price == 0 {
                return [
                    InvariantViolation(
                        .toldIsTrue, "\(says), which cost nothing (a free trial of \(record.productIdentifier))")
                ]
            }
            if alert.message.contains(Self.chargedAgain), !paidBefore(record, context.charged) {
                return [
                    InvariantViolation(
                        .toldIsTrue,
                        "\(says), but no earlier period of \(record.originalTransactionIdentifier) cost anything")
                ]
            }
        }
        return []
    }

    /// The words saying a charge is not the subscription's first.
    static let chargedAgain = "charged this Apple ID again"

    /// Whether an earlier transaction of `record`'s subscription cost money (a price not known counts as money).
    static func paidBefore(_ record: TransactionRecord, _ charged: [TransactionRecord]) -> Bool {
        charged.contains { other in
            other.originalTransactionIdentifier == record.originalTransactionIdentifier
                && other.transactionIdentifier != record.transactionIdentifier
                && other.purchaseDate <= record.purchaseDate && other.price != 0
        }
    }
}
