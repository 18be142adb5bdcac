import AppFlow

/// Invariant 9 of a charge told: "Purchase complete" says the reader bought something, so the transaction it speaks of
/// is a purchase (Apple's `transactionReason` PURCHASE), never a renewal Apple charged of a running subscription. A
/// billing recovery that reached the running app was told "Purchase complete" of a month the reader had not bought
/// again, only paid for as it renewed (session 35): it is "Subscription active again".
enum PurchaseToldCheck {
    static func violations(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard context.settled, world.isAppRunning else { return [] }
        let state = world.appState
        let shown = [state.alert].compactMap { $0 } + state.alertsWaiting
        for alert in shown where alert.title == Alert.purchaseComplete {
            guard let id = alert.transactionId,
                let record = context.charged.first(where: { $0.transactionIdentifier == id }),
                record.transactionReason == "RENEWAL"
            else { continue }
            return [
                InvariantViolation(
                    .toldIsTrue,
                    "\(world.deviceName) shows \"\(alert.title)\": \(alert.message) of transaction \(id), a renewal "
                        + "Apple charged of \(record.productIdentifier), not a purchase the reader made")
            ]
        }
        return []
    }
}
