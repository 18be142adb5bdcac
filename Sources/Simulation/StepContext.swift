import SimKernel
import StoreSim

/// What the issue-12 checks read about the step that just ran, beside the world.
struct StepContext {
    let world: World
    let step: MonitoredStep
    /// When the step began on the virtual clock.
    let began: SimInstant
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
