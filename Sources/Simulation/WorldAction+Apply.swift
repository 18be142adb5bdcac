import SimKernel
import StoreSim

/// Why the world could not do an action: what it needed, and what it found.
public struct WorldActionRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    public let expected: String
    public let actual: String

    public init(expected: String, actual: String) {
        self.expected = expected
        self.actual = actual
    }

    public var description: String { "expected \(expected), got \(actual)" }
}

extension WorldAction {
    /// Does this to `world` through the world's own controls, each written on the timeline; a refusal
    /// changed nothing and says so, there too, once: in the world's own words when its control wrote any, else
    /// `TEXT refused: why`. Written in this one place, a refusal is never on the timeline twice, nor missing from it
    /// (a second `kill` and an upgrade with no plan to upgrade wrote nothing, session 36's note).
    public func apply(to world: World) throws(WorldActionRefusal) {
        let written = world.timeline.entries.count
        do {
            try perform(on: world)
        } catch {
            if world.timeline.entries.count == written { world.timeline.log(.control, "\(text) refused: \(error)") }
            throw error
        }
    }

    private func perform(on world: World) throws(WorldActionRefusal) {
        // Apple's manage sheet, if it is up, shows what the action did at Apple (a month later, a refund).
        defer { world.device.readManageSheetAgain() }
        switch self {
        case .advance(.fixed(let duration)):
            guard world.travel(by: duration) else { throw Self.clockStops("the clock to move \(duration)") }
        case .advance(.months(let months)):
            guard world.travel(months: months) else { throw Self.clockStops("the clock to move \(months) months") }
        case .renew:
            guard world.travelToNextRenewal() else {
                throw WorldActionRefusal(expected: "a subscription that renews", actual: "no renewal ahead")
            }
        case .expire:
            guard world.expireSubscriptions() else {
                throw WorldActionRefusal(expected: "a subscription to expire", actual: "none is active")
            }
        case .refund:
            guard world.refundLatest() else {
                throw WorldActionRefusal(expected: "a transaction to refund", actual: "none to refund")
            }
        case .revoke:
            guard world.revokeLatest() else {
                throw WorldActionRefusal(expected: "a transaction to revoke", actual: "none to revoke")
            }
        case .billingIssue(let failing): world.setBillingIssue(failing)
        case .billingIssueWith(let grace): world.setBillingIssue(true, grace: grace)
        case .resolveInterrupted:
            guard world.resolveInterruptedPurchase() else {
                throw WorldActionRefusal(expected: "an interrupted purchase to resolve", actual: "none waits")
            }
        case .priceIncrease: world.raisePrices()
        case .raisePrice(let product, let price):
            if let refusal = world.minorUnitsRefusal(price) {
                throw WorldActionRefusal(expected: "a price in the storefront's currency", actual: refusal)
            }
            guard world.raisePrice(of: product, to: price) else {
                throw WorldActionRefusal(expected: "a higher price for \(product)", actual: "the store refused it")
            }
        case .changePlan(let change, let product): try Self.changePlan(change, to: product, on: world)
        case .transaction(let control, let id): try Self.transaction(control, id, on: world)
        case .nextPurchase(let outcome): world.nextPurchase = outcome
        case .clearFaults(let target):
            guard let store = StoreFaultTarget(rawValue: target) else {
                let targets = StoreFaultTarget.allCases.map(\.rawValue).joined(separator: ", ")
                throw WorldActionRefusal(expected: "an App Store fault target (\(targets))", actual: target)
            }
            world.clearStoreFaults(store)
        case .askToBuy(let on): world.askToBuy = on
        case .parentApprove:
            guard world.approveAskToBuy() else {
                throw WorldActionRefusal(expected: "a purchase waiting for a parent", actual: world.noneWaits)
            }
        case .parentDecline:
            guard world.declineAskToBuy() else {
                throw WorldActionRefusal(expected: "a purchase waiting for a parent", actual: world.noneWaits)
            }
        case .background: world.timeline.log(.control, "app to background")
        case .foreground:
            if world.isAppRunning { world.returnToForeground() } else { world.restartApp() }
        case .restartApp: world.restartApp()
        case .newDevice(let name):
            do {
                try world.newDevice(named: name)
            } catch {
                throw WorldActionRefusal(expected: "a new device \(name)", actual: error.description)
            }
        case .phone(let name):
            do {
                try world.showPhone(named: name)
            } catch {
                throw WorldActionRefusal(expected: "a phone named \(name) to go back to", actual: error.description)
            }
        case .kill:
            // A dead app cannot die again: "app killed" twice on the timeline, and a step in the recording, for a press
            // that changed nothing (session 34).
            guard world.isAppRunning else {
                throw WorldActionRefusal(expected: "a running app to kill", actual: "the app is not running (killed)")
            }
            world.kill()
        case .payments(let allowed): world.canMakePayments = allowed
        case .readerAge(let age): world.readerAge = age
        case .removeReceipt: world.removeReceipt()
        case .redeemCode(let code):
            if let refusal = world.redeemOfferCode(code) {
                throw WorldActionRefusal(expected: "the App Store to honour offer code \(code)", actual: refusal)
            }
        case .familyAdd(let member):
            do {
                try world.addFamilyMember(member)
            } catch {
                throw WorldActionRefusal(expected: "\(member) to join the family", actual: error.description)
            }
        case .familyRemove(let member):
            guard world.removeFamilyMember(member) else {
                throw WorldActionRefusal(expected: "\(member) to leave the family", actual: "not in the family")
            }
        case .familySharing(let on): world.familySharing = on
        case .storefront(let code):
            guard world.storefronts.contains(code) else {
                let sold = world.storefronts.joined(separator: ", ")
                throw WorldActionRefusal(expected: "a storefront the catalog sells in (\(sold))", actual: code)
            }
            world.storefront = code
        case .locale(let id):
            // The rule a config's `store.locale`, `--locale` and a `locale` line before launch are held to.
            if let problem = PriceLocales.problem(id, products: world.config.store.products) {
                throw WorldActionRefusal(expected: "a locale the store answers in", actual: problem)
            }
            world.locale = id
        case .latency(let profile): world.latency = profile
        case .inject(let plan):
            do {
                try world.inject(plan)
            } catch {
                throw WorldActionRefusal(expected: "faults the store and backend know", actual: error.description)
            }
        case .finish(let policy): world.finishPolicy = policy
        }
    }

    private static func changePlan(_ change: PlanChange, to product: String, on world: World)
        throws(WorldActionRefusal)
    {
        let expected = "a running plan to \(change.rawValue) to \(product)"
        guard let actual = world.planChange(to: product) else {
            throw WorldActionRefusal(expected: expected, actual: "no other running plan in its group")
        }
        guard actual == change else {
            throw WorldActionRefusal(
                expected: expected, actual: "Apple classes it as \(actual == .upgrade ? "an" : "a") \(actual.rawValue)")
        }
        guard world.changePlan(to: product) != nil else {
            throw WorldActionRefusal(expected: expected, actual: "the store refused it")
        }
    }

    private static func transaction(_ control: TransactionControl, _ id: String, on world: World)
        throws(WorldActionRefusal)
    {
        guard world.perform(control, on: id) else {
            if control == .approve || control == .decline, let lapsed = world.lapseNote(id) {
                throw WorldActionRefusal(expected: "\(id) to \(control.rawValue)", actual: lapsed)
            }
            // The ids that would have worked, since held payments are numbered by the store.
            let held = world.pendingPayments.map(\.identifier)
            let waiting = held.isEmpty ? "" : " (waiting: \(held.joined(separator: ", ")))"
            throw WorldActionRefusal(
                expected: "\(id) to \(control.rawValue)", actual: "nothing of the reader's by that id\(waiting)")
        }
    }

    private static func clockStops(_ expected: String) -> WorldActionRefusal {
        WorldActionRefusal(expected: expected, actual: "it stops at \(SimInstant.latest)")
    }
}
