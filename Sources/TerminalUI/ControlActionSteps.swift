import Scenarios
import SimKernel
import Simulation

extension ControlAction {
    /// The scenario steps that do what this control does, on the phone named `deviceName` after it;
    /// empty when no step says it (see `note`).
    public func scenarioSteps(deviceName: String) -> [StepKind] {
        switch self {
        case .approveAskToBuy: [.world(.parentApprove)]
        case .declineAskToBuy: [.world(.parentDecline)]
        case .nextPurchase(let outcome):
            // One planned outcome at a time, as the control applies it: the old plan is lifted first.
            [.world(.clearFaults("payment"))]
                + (outcome.fault.flatMap { Self.inject("payment \($0)") }.map { [$0] } ?? [])
        case .resolveInterruptedPurchase: [.world(.store(.resolveInterrupted))]
        case .refundLatest: [.world(.store(.refund))]
        case .setBillingIssue(let failing): [.world(.store(failing ? .billingIssue : .recover))]
        case .failNextReceiptCheck: Self.inject("receipts error").map { [$0] } ?? []
        case .timeOutNextBackendCall: Self.inject("backend timeout").map { [$0] } ?? []
        case .slowNextBackendCall: Self.inject("backend slow").map { [$0] } ?? []
        case .travelOneDay: [.world(.advance(.fixed(.days(1))))]
        case .travelOneMonth: [.world(.advance(.months(1)))]
        case .travelToNextRenewal: [.world(.store(.renew))]
        case .backgroundAndBack: [.world(.background), .world(.foreground)]
        case .restartApp: [.world(.restartApp)]
        case .newDevice: [.world(.newDevice(deviceName))]
        case .setLatency(let profile): [.setup(.latency(profile))]
        case .setStorefront(let code): [.setup(.storefront(code))]
        case .setLocale(let locale): [.setup(.locale(locale))]
        case .setAskToBuy(let on): [.world(.askToBuy(on))]
        case .removeReceipt: [.world(.removeReceipt)]
        case .setCanMakePayments(let allowed): [.world(.payments(allowed: allowed))]
        case .raisePrices: [.world(.store(.priceIncrease))]
        case .setFinishBeforeServerCheck(let before):
            [.setup(.finish(before ? .beforeServerCheck : .afterServerCheck))]
        case .transaction(let control, let id): [.world(.transaction(control, id))]
        }
    }

    /// What a recording says of a control with no step (none today: every control is one).
    var note: String { "control: \(self)" }

    /// Writes this control, just applied to `world`, into `recorder` as the scenario steps that do the
    /// same; a control no step can say becomes a comment.
    public func record(into recorder: ScenarioRecorder, world: World) {
        let steps = scenarioSteps(deviceName: world.deviceName)
        if steps.isEmpty { recorder.note(note) }
        for step in steps {
            switch step {
            case .world(let worldStep): recorder.record(worldStep)
            case .setup(let setupStep): recorder.record(setupStep)
            default: break
            }
        }
    }

    private static func inject(_ rule: String) -> StepKind? {
        (try? FaultPlan.parse(rule)).map { .setup(.inject($0)) }
    }
}
