import AppFlow
import SimKernel
import StoreSim
import Subscriptions

/// Invariant 9 of a charge told again at a launch (`ChargeAlertsUnseen`): its words are true of Apple and of the phone
/// then, not only when first told. Words saying the subscription is active ("Your subscription is active", "…active
/// again") are said only while Apple entitles the Apple ID in the charge's subscription group, and, once settled with no
/// fault since the launch's step began, over the levels its plan gives; words saying it is "not active now" only once
/// Apple no longer entitles the charge's own subscription. Judged in the launch's step once it settled (a launch left
/// unsettled is not judged against what Apple did after it); the levels and "not active now" only where the reader did not
/// act after the launch (a log-out, a purchase), and not once the server ended the session of the account shown when
/// told, the phone saying so. A launch told "Your subscription is active" of an offer code Apple had refunded between the
/// kill and the launch, its articles locked, every invariant holding (found-by-hand/518; planted
/// `charge-told-again-as-first-told`).
struct ToldAgainCheck {
    /// The launch last judged, on which phone: its words are judged once, when the world first settles after it.
    private var judged: (device: String, launch: Int)?

    mutating func check(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard context.settled, world.isAppRunning, let told = world.device.toldAgain,
            told.launch == world.currentLaunch, judged.map({ $0 != (world.deviceName, told.launch) }) ?? true
        else { return [] }
        judged = (world.deviceName, told.launch)
        // A launch in an earlier step, unsettled then: what Apple did since is not what the launch read. By step, not
        // by instant: after a restart `without waiting`, a refund in the next step falls at the launch's very instant
        // (long 2380, default 5654).
        guard told.launch > context.launchesBefore else { return [] }
        for alert in told.alerts {
            if let untrue = untrue(alert, toldAt: told.at, signedOut: signedOut(from: told.identity, world), context) {
                return [
                    InvariantViolation(
                        .toldIsTrue,
                        "\(world.deviceName) told again at its launch \"\(alert.title)\": \(alert.message) \(untrue)")
                ]
            }
        }
        return []
    }

    /// What makes the alert's words untrue now, if anything.
    private func untrue(_ alert: Alert, toldAt: SimInstant, signedOut: Bool, _ context: StepContext) -> String? {
        let world = context.world
        let saysActive = alert.message.contains("subscription is active")
        let saysEnded = alert.message.contains("not active now")
        // The reader's own act after the launch (a log-out, a purchase) changes what the phone shows and may make a
        // subscription new again: the words are then judged only by what no act of the reader's can undo.
        let readerSince = world.readerActed.map { $0 >= toldAt } ?? false
        guard saysActive || saysEnded && !readerSince else { return nil }
        let shared = world.store.familySharedTransactions(appleId: world.appleId)
        let record = alert.transactionId.flatMap { id in
            (context.charged + shared).first { $0.transactionIdentifier == id }
        }
        guard let productId = record?.productIdentifier ?? alert.productId else { return nil }
        let entitled = world.appleEntitled
        let own = record.map { entitled.contains($0.originalTransactionIdentifier) }
        let subject = record.map { "transaction \($0.transactionIdentifier) of \(productId)" } ?? productId
        if saysEnded {
            guard own == true else { return nil }
            return "when Apple still entitles \(world.appleId) to \(subject)"
        }
        let group = Self.group(of: productId, world)
        let inGroup = entitled.contains { original in
            let held =
                world.store.subscription(originalTransactionId: original)?.groupId
                ?? shared.first { $0.originalTransactionIdentifier == original }.flatMap {
                    Self.group(of: $0.productIdentifier, world)
                }
            return held == group
        }
        guard own == true || (group != nil && inGroup) else {
            return "when Apple entitles \(world.appleId) to nothing in the group of \(subject)"
        }
        let plan = context.planNow(of: productId, original: record?.originalTransactionIdentifier)
        guard !readerSince, !signedOut, let levels = context.levels(of: plan),
            !levels.isSubset(of: context.phoneLevels),
            !context.faultSince(context.began)
        else { return nil }
        return "when the phone shows \(context.phoneLevels.sorted()), not the levels \(levels.sorted()) of \(plan)"
    }

    /// The phone no longer shows the account it showed when told, and says the server ended its session ("Signed out:
    /// Your session as … ended. Log in again", up or in turn; the reader's own log-out is `readerActed`). The
    /// subscription is still active, on that account: the phone need not show its levels (long fuzz seeds 2208 and
    /// 2211: a session past its refresh token's lifetime, refused at the launch that told the charge again).
    private func signedOut(from told: AccessSnapshot.Identity, _ world: World) -> Bool {
        guard case .account(let email) = told, world.appState.access.identity != told else { return false }
        let state = world.appState
        return ([state.alert].compactMap { $0 } + state.alertsWaiting).contains {
            $0.message.contains("Your session as \(email) ended")
        }
    }

    private static func group(of productId: String, _ world: World) -> String? {
        world.config.store.products.first { $0.productId == productId }?.subscriptionGroup
    }
}
