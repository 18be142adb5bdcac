import SimKernel
import StoreSim

/// Faults planned from outside: the store's own rules, or the network's before the backend.
extension World {
    /// Injects faults: each rule goes to the store or to the network before the backend, by its target.
    /// Every rule is checked before any is applied, so a bad one changes nothing.
    public func inject(_ plan: FaultPlan) throws(FaultPlanError) {
        var storeRules = FaultPlan()
        var backendRules: [FaultRule] = []
        for rule in plan.rules {
            if StoreFaultTarget(rawValue: rule.target) != nil {
                _ = try StoreFault(rule)
                storeRules.add(rule)
            } else if BackendFault.targets.contains(rule.target) {
                try BackendFault.validate(rule)
                backendRules.append(rule)
            } else {
                let targets = StoreFaultTarget.allCases.map(\.rawValue) + BackendFault.targets
                throw FaultPlanError("\"\(rule)\": unknown target (targets: \(targets.joined(separator: ", ")))")
            }
        }
        if !storeRules.isEmpty { try store.inject(storeRules) }
        for rule in backendRules {
            network.faults.add(rule)
            timeline.log(.control, "inject \(rule)")
        }
    }
}
