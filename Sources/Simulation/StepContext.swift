import SimKernel
import StoreSim

/// What the issue-12 checks read about the step that just ran, beside the world.
struct StepContext {
    let world: World
    let step: MonitoredStep
    /// When the step began on the virtual clock.
    let began: SimInstant
    /// `world.launches` as the step began: a launch numbered above it was made during the step. By step, not by
    /// instant: a step taken `without waiting` takes no time, so the next begins at the instant it began (long 2380).
    let launchesBefore: Int
    /// `world.receiptAccepted` as the step began: an acceptance made during the step changed it.
    let receiptsAcceptedBefore: [String: SimInstant]
    /// Nothing is due: every answer has arrived (false after a step `without waiting`).
    var settled: Bool { world.scheduler.isIdle }
    /// When a fault of the store or the backend last fired.
    let lastFault: SimInstant?
    /// When each step so far began, in order.
    let stepStarts: [SimInstant]
    /// `world.paidSubscriptions` after the step, read once for every check of it (each read queries the store).
    let paid: [SubscriptionRecord]
    /// `world.chargedTransactions` after the step, likewise (four checks read it).
    let charged: [TransactionRecord]

    /// When the step during which `instant` fell began: a fault then may have shaped what happened at `instant`.
    func stepBegan(containing instant: SimInstant) -> SimInstant {
        stepStarts.last { $0 <= instant } ?? instant
    }

    /// When the server last accepted a receipt of `device`, if it did during this step: by step, not by instant (an
    /// answer at the very instant the step began may be the step before's).
    func receiptAcceptedDuring(on device: String) -> SimInstant? {
        let now = world.receiptAccepted[device]
        return now == receiptsAcceptedBefore[device] ? nil : now
    }

    /// Whether a fault fired at or after `instant`: what the reader sees since may be the fault's doing.
    func faultSince(_ instant: SimInstant) -> Bool {
        lastFault.map { $0 >= instant } ?? false
    }

    /// The plan a purchase of `productId` is on now: Apple may have moved its subscription since (a downgrade
    /// taken at the renewal, with the old transaction delivered again at a launch). `original`: its original
    /// transaction id when known; else the paid subscription of the product's group.
    func planNow(of productId: String, original: String? = nil) -> String {
        let group = world.config.store.products.first { $0.productId == productId }?.subscriptionGroup
        let now = paid.first { subscription in
            original.map { subscription.originalTransactionId == $0 } ?? (group != nil && subscription.groupId == group)
        }
        return now?.productId ?? productId
    }

    /// The levels the owner's config maps a product to; nil for a product it does not map.
    func levels(of productId: String) -> Set<String>? {
        world.config.backend.productLevels[productId].map(Set.init)
    }

    /// The levels the phone on screen holds now.
    var phoneLevels: Set<String> { Set(world.appState.access.levels.map(\.rawValue)) }
}
