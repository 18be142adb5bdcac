import SimKernel
import StoreSim

/// Apple's `notification` target (the App Store's post of its news) and the server's `notifications` (the endpoint
/// that receives it) differ by one letter: a fault of one given to the other names the target it belongs to, where
/// "unknown backend fault" or "has no fault" left the reader to guess (session 31, tester h12).
enum NotificationFaultSides {
    static let apple = StoreFaultTarget.notification
    static let server = "notifications"

    /// Throws when `rule` puts one side's fault on the other side's target.
    static func check(_ rule: FaultRule) throws(FaultPlanError) {
        let serverFaults = BackendFault.allCases.map(\.rawValue)
        if rule.target == server, apple.faults.contains(rule.fault) {
            throw FaultPlanError(
                "\"\(rule.targetAndFault)\": \(rule.fault) is a fault of Apple's \(apple.rawValue) target (the App "
                    + "Store's post of its news); the server's \(server) takes: \(serverFaults.joined(separator: ", "))"
            )
        }
        if rule.target == apple.rawValue, serverFaults.contains(rule.fault) {
            throw FaultPlanError(
                "\"\(rule.targetAndFault)\": \(rule.fault) is a fault of the server's \(server) target (its endpoint "
                    + "for Apple's news); Apple's \(apple.rawValue) takes: \(apple.faults.joined(separator: ", "))")
        }
    }
}
