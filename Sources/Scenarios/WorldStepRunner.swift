import SimKernel
import Simulation
import StoreSim

/// Runs the steps that act on the world from outside the app.
enum WorldStepRunner {
    private static func travel(by duration: SimDuration, on world: World) throws(StepFailure) {
        guard world.travel(by: duration) else {
            throw StepFailure(expected: "the clock to move \(duration)", actual: "it stops at \(SimInstant.latest)")
        }
    }

    static func run(_ step: WorldStep, on world: World, killed: inout Bool) throws(StepFailure) {
        switch step {
        case .advance(.fixed(let duration)):
            try travel(by: duration, on: world)
        case .advance(.months(let months)):
            guard world.travel(months: months) else {
                throw StepFailure(
                    expected: "the clock to move \(months) months", actual: "it stops at \(SimInstant.latest)")
            }
        case .store(let event):
            try store(event, on: world)
        case .parentApprove:
            guard world.approveAskToBuy() else {
                throw StepFailure(expected: "a purchase waiting for a parent", actual: "none waits")
            }
        case .parentDecline:
            guard world.declineAskToBuy() else {
                throw StepFailure(expected: "a purchase waiting for a parent", actual: "none waits")
            }
        case .background:
            world.timeline.log(.control, "app to background")
        case .foreground, .restartApp:
            if killed || step == .restartApp {
                killed = false
                world.restartApp()
            } else {
                world.returnToForeground()
            }
        case .newDevice(let name):
            do {
                try world.newDevice(named: name)
                killed = false
            } catch {
                throw StepFailure(expected: "a new device \(name)", actual: error.description)
            }
        case .kill:
            world.kill()
            killed = true
        case .askToBuy(let on): world.askToBuy = on
        case .payments(let allowed): world.canMakePayments = allowed
        case .removeReceipt: world.removeReceipt()
        case .clearFaults(let target):
            guard let store = StoreFaultTarget(rawValue: target) else {
                let targets = StoreFaultTarget.allCases.map(\.rawValue).joined(separator: ", ")
                throw StepFailure(expected: "an App Store fault target (\(targets))", actual: target)
            }
            world.clearStoreFaults(store)
        case .changePlan(let change, let product):
            try WorldStepControls.changePlan(change, to: product, on: world)
        case .priceIncrease(let product, let price):
            guard world.raisePrice(of: product, to: price) else {
                throw StepFailure(expected: "a higher price for \(product)", actual: "the store refused it")
            }
        case .transaction(let control, let id):
            try WorldStepControls.transaction(control, id, on: world)
        }
    }

    private static func store(_ event: StoreEvent, on world: World) throws(StepFailure) {
        switch event {
        case .renew:
            guard world.travelToNextRenewal() else {
                throw StepFailure(expected: "a subscription that renews", actual: "no renewal ahead")
            }
        case .expire:
            guard world.expireSubscriptions() else {
                throw StepFailure(expected: "a subscription to expire", actual: "none is active")
            }
        case .refund:
            guard world.refundLatest() else {
                throw StepFailure(expected: "a transaction to refund", actual: "none to refund")
            }
        case .revoke:
            guard world.revokeLatest() else {
                throw StepFailure(expected: "a transaction to revoke", actual: "none to revoke")
            }
        case .billingIssue: world.setBillingIssue(true)
        case .recover: world.setBillingIssue(false)
        case .priceIncrease: world.raisePrices()
        case .resolveInterrupted:
            guard world.resolveInterruptedPurchase() else {
                throw StepFailure(expected: "an interrupted purchase to resolve", actual: "none waits")
            }
        }
    }
}
