import SimKernel

/// A payment the store holds back: waiting for a parent's approval (Ask to Buy) or for an action
/// outside the app (an interrupted purchase: new terms to accept, a payment method to fix).
public struct PendingPayment: Equatable, Sendable {
    /// Why the payment waits.
    public enum Kind: String, Sendable {
        case askToBuy = "ask-to-buy"
        case interrupted
    }

    /// The control's handle, `ask-1`, `interrupted-2`.
    public let identifier: String
    public let kind: Kind
    public let appleId: String
    public let deviceId: String
    public let product: Product
    /// The payment's number on the device's queue.
    public let paymentNumber: Int
    public let requestDate: SimInstant
    /// The customer the app named on the payment; the charge keeps it when it finally happens.
    public var appAccountToken: String? = nil
}

extension AppStore {
    /// Ask to Buy for one Apple ID (a child in a Family Sharing group), as the parent sets it.
    public func setAskToBuy(_ enabled: Bool, appleId: String) {
        if enabled { askToBuyAppleIds.insert(appleId) } else { askToBuyAppleIds.remove(appleId) }
        log("ask to buy \(enabled ? "on" : "off") for \(appleId)")
    }

    public func needsAskToBuy(_ appleId: String) -> Bool {
        askToBuyEnabled || askToBuyAppleIds.contains(appleId)
    }

    /// Payments waiting for a parent or for an action outside the app, oldest first.
    public var pendingAskToBuy: [PendingPayment] { pendingPayments.filter { $0.kind == .askToBuy } }
    public var interruptedPurchases: [PendingPayment] { pendingPayments.filter { $0.kind == .interrupted } }

    func hold(_ payment: PendingPayment) -> PendingPayment {
        nextPendingNumber += 1
        let held = PendingPayment(
            identifier: "\(payment.kind.rawValue)-\(nextPendingNumber)", kind: payment.kind, appleId: payment.appleId,
            deviceId: payment.deviceId, product: payment.product, paymentNumber: payment.paymentNumber,
            requestDate: payment.requestDate, appAccountToken: payment.appAccountToken)
        pendingPayments.append(held)
        return held
    }

    /// The parent approves: the store charges and the device's observer sees `purchased`, whatever
    /// screen the app shows by then. Without an identifier, the oldest request is approved.
    /// False when nothing waits.
    @discardableResult
    public func approveAskToBuy(_ identifier: String? = nil) -> Bool {
        guard let payment = take(.askToBuy, identifier) else { return false }
        log("ask to buy approved: \(payment.product.productIdentifier) for \(payment.appleId)")
        settle(payment)
        return true
    }

    /// The parent declines: the observer sees `failed` (paymentNotAllowed: the purchase was not allowed),
    /// and nothing is charged.
    @discardableResult
    public func declineAskToBuy(_ identifier: String? = nil) -> Bool {
        guard let payment = take(.askToBuy, identifier) else { return false }
        log("ask to buy declined: \(payment.product.productIdentifier) for \(payment.appleId)")
        if let queue = queues[payment.deviceId]?.queue {
            queue.deliver(
                queue.failed(payment.paymentNumber, payment.product.productIdentifier, .paymentNotAllowed),
                after: .zero)
        }
        return true
    }

    /// The reader did what the store asked outside the app: the purchase completes as a new transaction.
    @discardableResult
    public func resolveInterruptedPurchase(_ identifier: String? = nil) -> Bool {
        guard let payment = take(.interrupted, identifier) else { return false }
        log("interrupted purchase resolved: \(payment.product.productIdentifier) for \(payment.appleId)")
        settle(payment)
        return true
    }

    private func take(_ kind: PendingPayment.Kind, _ identifier: String?) -> PendingPayment? {
        guard
            let index = pendingPayments.firstIndex(where: {
                $0.kind == kind && (identifier == nil || $0.identifier == identifier)
            })
        else { return nil }
        return pendingPayments.remove(at: index)
    }

    /// Charges a held payment on the device's live queue; with the app not running, the charge is
    /// recorded unfinished and reaches the observer at the next launch.
    private func settle(_ payment: PendingPayment) {
        if let queue = queues[payment.deviceId]?.queue {
            queue.paymentCount += 1
            queue.complete(
                payment.kind == .askToBuy ? payment.paymentNumber : queue.paymentCount, payment.product,
                appAccountToken: payment.appAccountToken)
        } else {
            _ = try? purchase(
                payment.product, appleId: payment.appleId, deviceId: payment.deviceId,
                appAccountToken: payment.appAccountToken)
        }
    }
}
