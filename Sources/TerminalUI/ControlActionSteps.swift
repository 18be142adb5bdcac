import Scenarios
import SimKernel
import Simulation

extension ControlAction {
    /// Writes this control, just applied to `world`, into `recorder` as the scenario step that does the
    /// same; a control no step can say becomes a comment, so the recording shows where it was used.
    public func record(into recorder: ScenarioRecorder, world: World) {
        switch self {
        case .approveAskToBuy: recorder.record(WorldStep.parentApprove)
        case .declineAskToBuy: recorder.record(WorldStep.parentDecline)
        case .nextPurchase(let outcome):
            if let fault = outcome.fault {
                Self.inject("payment \(fault)", recorder)
            } else {
                recorder.note("control: the next purchase goes through (no step clears a planned fault yet)")
            }
        case .refundLatest: recorder.record(WorldStep.store(.refund))
        case .setBillingIssue(let failing): recorder.record(WorldStep.store(failing ? .billingIssue : .recover))
        case .failNextReceiptCheck: Self.inject("receipts error", recorder)
        case .timeOutNextBackendCall: Self.inject("backend timeout", recorder)
        case .slowNextBackendCall: Self.inject("backend slow", recorder)
        case .travelOneDay: recorder.record(WorldStep.advance(.fixed(.days(1))))
        case .travelOneMonth: recorder.record(WorldStep.advance(.months(1)))
        case .travelToNextRenewal: recorder.record(WorldStep.store(.renew))
        case .backgroundAndBack:
            recorder.record(WorldStep.background)
            recorder.record(WorldStep.foreground)
        case .restartApp: recorder.record(WorldStep.restartApp)
        case .newDevice: recorder.record(WorldStep.newDevice(world.deviceName))
        case .setLatency(let profile): recorder.record(SetupStep.latency(profile))
        case .setStorefront(let code): recorder.record(SetupStep.storefront(code))
        case .setLocale(let locale): recorder.record(SetupStep.locale(locale))
        case .setAskToBuy(let on): recorder.note("control: ask to buy \(on ? "on" : "off") (no step says this yet)")
        case .removeReceipt: recorder.note("control: receipt removed (no step says this yet)")
        case .setCanMakePayments(let allowed):
            recorder.note("control: payments \(allowed ? "allowed" : "restricted") (no step says this yet)")
        case .raisePrices: recorder.note("control: prices raised (no step says this yet)")
        case .setFinishBeforeServerCheck(let before):
            recorder.note(
                "control: finish transactions \(before ? "before" : "after") the server check (no step says this yet)")
        }
    }

    private static func inject(_ rule: String, _ recorder: ScenarioRecorder) {
        guard let plan = try? FaultPlan.parse(rule) else { return }
        recorder.record(SetupStep.inject(plan))
    }
}
