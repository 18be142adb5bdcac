import SimKernel

extension AppStore {
    /// The faults still planned, in the order they were added: the control pane shows what the next call will do.
    public var plannedFaults: [FaultRule] { faultPlan.rules }

    /// Whether the Apple ID's payment method currently fails.
    public func hasBillingIssue(appleId: String) -> Bool {
        billingIssueAppleIds.contains(appleId)
    }
}
