import SimKernel
import Simulation

extension ControlAction {
    /// Does this to `world` through the world's own controls, which write each step on the timeline.
    public func apply(to world: World) {
        switch self {
        case .setAskToBuy(let on): world.askToBuy = on
        case .approveAskToBuy: world.approveAskToBuy()
        case .declineAskToBuy: world.declineAskToBuy()
        case .nextPurchase(let outcome):
            // One planned outcome at a time: the new choice replaces the old one.
            if world.store.plannedFaults.contains(where: { $0.target == "payment" }) {
                world.store.clearFaults(.payment)
            }
            if let fault = outcome.fault { Self.inject("payment \(fault)", into: world) }
        case .resolveInterruptedPurchase: world.resolveInterruptedPurchase()
        case .removeReceipt: world.removeReceipt()
        case .setCanMakePayments(let allowed): world.canMakePayments = allowed
        case .refundLatest: world.refundLatest()
        case .setBillingIssue(let failing): world.setBillingIssue(failing)
        case .raisePrices: world.raisePrices()
        case .failNextReceiptCheck: Self.inject("receipts error", into: world)
        case .timeOutNextBackendCall: Self.inject("backend timeout", into: world)
        case .slowNextBackendCall: Self.inject("backend slow", into: world)
        case .travelOneDay: world.travel(by: .days(1))
        case .travelOneMonth: world.travel(months: 1)
        case .travelToNextRenewal: world.travelToNextRenewal()
        case .backgroundAndBack: world.returnToForeground()
        case .restartApp: world.restartApp()
        case .newDevice: Self.addDevice(to: world)
        case .setLatency(let profile): world.latency = profile
        case .setStorefront(let code): world.storefront = code
        case .setLocale(let locale): world.locale = locale
        case .setFinishBeforeServerCheck(let before):
            world.finishPolicy = before ? .beforeServerCheck : .afterServerCheck
        case .transaction(let control, let id): world.perform(control, on: id)
        }
    }

    /// The rules here are fixed text the world understands; if one were refused, the timeline says why
    /// rather than the terminal stopping.
    private static func inject(_ rule: String, into world: World) {
        do {
            try world.inject(FaultPlan.parse(rule))
        } catch {
            world.timeline.log(.control, "could not inject \(rule): \(error)")
        }
    }

    /// Each new phone gets the first free name: iphone-2, iphone-3…
    private static func addDevice(to world: World) {
        for number in 2...99 {
            if (try? world.newDevice(named: "iphone-\(number)")) != nil { return }
        }
        world.timeline.log(.control, "no new device: 98 phones is enough")
    }
}
