import SimKernel
import Subscriptions
import WhiteLabel

/// `AppState`'s stored fields, kept in one box that copies of the state share until one of them changes (copy on write).
@usableFromInline struct AppStateFields: Sendable {
    @usableFromInline var app: AppPart
    @usableFromInline var locale: String = "en_US"
    @usableFromInline var stack: [AppState.Route] = [AppState.Route.feed]
    @usableFromInline var selections: [Int] = [0]
    @usableFromInline var offers: [Offer]?
    @usableFromInline var access: AccessSnapshot = AccessSnapshot.unknown
    @usableFromInline var purchase: (offerId: String, stage: PurchaseStage)?
    @usableFromInline var paymentSheet: PaymentSheetInfo?
    @usableFromInline var alert: Alert?
    @usableFromInline var alertsWaiting: [Alert] = []
    @usableFromInline var fullContent: [String: AppState.FullContent] = [:]
    @usableFromInline var form: AccountForm = AccountForm()
    @usableFromInline var gate: ParentalGate?
    @usableFromInline var gateDraws: SeededGenerator = SeededGenerator(seed: 0)
    @usableFromInline var lastGateQuestion: String?
    @usableFromInline var operation: String?
    @usableFromInline var subscriptionList: SubscriptionList?
    @usableFromInline var phoneSubscriptionList: SubscriptionList?
    @usableFromInline var manageSheet: [ManagedSubscription]?
    @usableFromInline var pendingSubscribe: PendingSubscribe?
    @usableFromInline var transferAskedFor: String?
    @usableFromInline var restoreMoves: Bool = false
    @usableFromInline var clock: Int64?
    @usableFromInline var productGroups: [String: String] = [:]
}

/// The box: read and written only through `AppState`'s accessors, and written only while no other copy holds it
/// (`makeUnique`), so an access to it overlaps another only where the two are accesses to the same `AppState`, which
/// Swift checks there. Unchecked: the runtime's check would be one more per field read.
@usableFromInline final class AppStateBox: @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var fields: AppStateFields

    @usableFromInline init(_ fields: AppStateFields) { self.fields = fields }
}
