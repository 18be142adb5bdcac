import SimKernel
import StoreSim

/// Faults planned from outside: the store's own rules, or the network's before the backend.
extension World {
    /// Whether every rule of `plan` names a target and a fault the world knows: `run` asks before it opens the
    /// terminal or the state folder, so a bad rule is the one message a reader sees.
    public static func check(_ plan: FaultPlan) throws(FaultPlanError) {
        _ = try split(plan)
    }

    /// Injects faults: each rule goes to the store or to the network before the backend, by its target.
    /// Every rule is checked before any is applied, so a bad one changes nothing.
    public func inject(_ plan: FaultPlan) throws(FaultPlanError) {
        let (storeRules, backendRules) = try Self.split(plan)
        if !storeRules.isEmpty { try store.inject(storeRules) }
        for rule in backendRules {
            network.faults.add(rule)
            timeline.log(.control, "inject \(rule)")
        }
    }

    /// The plan's rules for the store and for the network before the backend, each checked.
    private static func split(_ plan: FaultPlan) throws(FaultPlanError) -> (FaultPlan, [FaultRule]) {
        var storeRules = FaultPlan()
        var backendRules: [FaultRule] = []
        for rule in plan.rules {
            try NotificationFaultSides.check(rule)
            if StoreFaultTarget(rawValue: rule.target) != nil {
                _ = try StoreFault(rule)
                storeRules.add(rule)
            } else if BackendFault.targets.contains(rule.target) {
                try BackendFault.validate(rule)
                backendRules.append(rule)
            } else {
                let targets = StoreFaultTarget.allCases.map(\.rawValue) + BackendFault.targets
                throw FaultPlanError(
                    "\"\(rule.targetAndFault)\": unknown target (targets: \(targets.joined(separator: ", ")))")
            }
        }
        return (storeRules, backendRules)
    }
}
