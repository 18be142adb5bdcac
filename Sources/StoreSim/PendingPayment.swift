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
    public internal(set) var product: Product
    /// The payment's number on the device's queue.
    public let paymentNumber: Int
    public let requestDate: SimInstant
    /// The customer the app named on the payment; the charge keeps it when it finally happens.
    public var appAccountToken: String? = nil
    /// Its row in `appstore.sqlite`, so a reopened store still holds it.
    var heldId: Int64 = 0
    /// The promotional offer the reader confirmed on Apple's sheet (`AppliedOffer.key`): the charge is at its price,
    /// or there is none (`offerAtCharge`).
    var offerId: String? = nil
    /// Whether a promotional offer was confirmed with it (the offer's key stays the store's).
    public var hasOffer: Bool { offerId != nil }
    /// Held by a planned fault (`inject payment deferred`), not by the Apple ID's Ask to Buy: the tester's deferral,
    /// whatever the payment would charge. Not kept on disk: a reopened store holds it as any request.
    public internal(set) var deferredByFault = false
    /// The sheet's confirmation (`AppStore.confirmedPayments`) in this world, if it was here: what the charge names.
    var confirmation: Int? = nil
    /// When an Ask to Buy request lapsed, no parent having answered within `AppStore.askToBuyLapse`.
    public internal(set) var lapsedAt: SimInstant? = nil
}

extension AppStore {
    /// Ask to Buy for one Apple ID (a child in a Family Sharing group), as the parent sets it. It overrides the
    /// session's setting (`askToBuyEnabled`, a kids app's default) for that Apple ID, both ways: "off" said and
    /// ignored left a control that logged off and showed on (session 23).
    public func setAskToBuy(_ enabled: Bool, appleId: String) {
        askToBuyAppleIds[appleId] = enabled
        log("ask to buy \(enabled ? "on" : "off") for \(appleId)")
        _ = logged("keep the Ask to Buy setting of \(appleId)") { try ledger.saveAskToBuy(enabled, appleId: appleId) }
    }

    /// The parents' settings kept before this run (a reopened state folder).
    func resumeAskToBuy() {
        if let kept = logged("read the Ask to Buy settings", { try ledger.askToBuySettings() }) {
            askToBuyAppleIds.merge(kept) { _, kept in kept }
        }
    }

    public func needsAskToBuy(_ appleId: String) -> Bool {
        askToBuyAppleIds[appleId] ?? askToBuyEnabled
    }

    /// Payments waiting for a parent or for an action outside the app, oldest first.
    public var pendingAskToBuy: [PendingPayment] { pendingPayments.filter { $0.kind == .askToBuy } }
    public var interruptedPurchases: [PendingPayment] { pendingPayments.filter { $0.kind == .interrupted } }

    /// Holds a payment, on disk too: its handle is its kind's next number, unique across every run on one state folder
    /// and one more than the last (the row's id, shared with confirmed payments, skipped: h1, session 30).
    func hold(_ payment: PendingPayment) -> PendingPayment {
        nextPendingNumber += 1
        var row = (id: Int64(nextPendingNumber), number: Int64(nextPendingNumber))
        do {
            row = try ledger.hold(
                kind: payment.kind.rawValue, numbered: true, appleId: payment.appleId, deviceId: payment.deviceId,
                productId: payment.product.productIdentifier, paymentNumber: payment.paymentNumber,
                at: payment.requestDate, appAccountToken: payment.appAccountToken, offerId: payment.offerId)
        } catch {
            log("the held payment could not be written down, it lives in memory only: \(error)")
        }
        var held = PendingPayment(
            identifier: "\(payment.kind.rawValue)-\(row.number)", kind: payment.kind, appleId: payment.appleId,
            deviceId: payment.deviceId, product: payment.product, paymentNumber: payment.paymentNumber,
            requestDate: payment.requestDate, appAccountToken: payment.appAccountToken)
        held.heldId = row.id
        held.offerId = payment.offerId
        held.confirmation = payment.confirmation
        held.deferredByFault = payment.deferredByFault
        pendingPayments.append(held)
        if held.kind == .askToBuy { scheduleLapse(of: held) }
        return held
    }

    /// A payment confirmed on Apple's sheet, written down before it is charged: the payment is Apple's
    /// from then on, and goes through even if the app or the whole process dies first.
    func holdConfirmed(
        _ number: Int, _ product: Product, appleId: String, deviceId: String, appAccountToken: String? = nil,
        offerId: String? = nil
    ) -> Int64? {
        do {
            return try ledger.hold(
                kind: Self.confirmedKind, numbered: false, appleId: appleId, deviceId: deviceId,
                productId: product.productIdentifier, paymentNumber: number, at: scheduler.now,
                appAccountToken: appAccountToken, offerId: offerId
            ).id
        } catch {
            log("the confirmed payment could not be written down: \(error)")
            return nil
        }
    }

    /// Forgets a held payment once it is charged, refused or declined.
    func releaseHeld(_ id: Int64?) {
        guard let id else { return }
        do {
            try ledger.release(id)
        } catch {
            log("the held payment \(id) could not be released: \(error)")
        }
    }

    static let confirmedKind = "confirmed"

    /// Carries on what the last run held (a reopened state folder): a payment confirmed but not yet
    /// charged goes through now, unfinished, so the app's observer hears of it at launch, as StoreKit's
    /// queue delivers it; Ask to Buy requests and interrupted purchases wait again.
    public func resumeHeldPayments() {
        let held: [StoreLedger.HeldPayment]
        do {
            held = try ledger.heldPayments()
        } catch {
            return log("the held payments could not be read: \(error)")
        }
        for payment in held {
            guard let product = product(payment.productId) else {
                log("held payment \(payment.id) names an unknown product \(payment.productId): dropped")
                releaseHeld(payment.id)
                continue
            }
            guard let kind = PendingPayment.Kind(rawValue: payment.kind) else {
                log("a payment confirmed before the last run stopped goes through: \(payment.productId)")
                // Charged and released in one commit: a kill in between would charge it again at the next open.
                inOneCommit("write down the charge of the confirmed payment \(payment.id)") {
                    do {
                        _ = try purchase(
                            confirmed: product, appleId: payment.appleId, deviceId: payment.deviceId,
                            terms: ChargeTerms(appAccountToken: payment.appAccountToken, offerId: payment.offerId))
                        releaseHeld(payment.id)
                    } catch {
                        log("the confirmed payment could not be charged yet: \(error)")
                    }
                }
                continue
            }
            guard !pendingPayments.contains(where: { $0.heldId == payment.id }),
                !lapsedRequests.contains(where: { $0.heldId == payment.id })
            else { continue }
            var pending = PendingPayment(
                identifier: "\(kind.rawValue)-\(payment.number)", kind: kind, appleId: payment.appleId,
                deviceId: payment.deviceId, product: product, paymentNumber: payment.paymentNumber,
                requestDate: payment.requested, appAccountToken: payment.appAccountToken)
            pending.heldId = payment.id
            pending.offerId = payment.offerId
            pending.lapsedAt = payment.lapsed
            guard pending.lapsedAt == nil else {
                lapsedRequests.append(pending)
                continue
            }
            pendingPayments.append(pending)
            if kind == .askToBuy { scheduleLapse(of: pending) }
        }
        for case let queue? in queues.values.map(\.queue) { numberPastHeldPayments(queue) }
    }

    /// The parent approves: the store charges and the device's observer sees `purchased`, whatever
    /// screen the app shows by then. Without an identifier, the oldest request is approved.
    /// False when nothing waits.
    @discardableResult
    public func approveAskToBuy(_ identifier: String? = nil) -> Bool {
        guard waits(.askToBuy, identifier) else { return false }
        // Released in the commit that charges it.
        inOneCommit("write down the approved payment") {
            guard let payment = take(.askToBuy, identifier) else { return }
            log("ask to buy approved: \(payment.product.productIdentifier) for \(payment.appleId)")
            settle(payment)
        }
        return true
    }

    /// The parent declines: the observer sees `failed` (paymentNotAllowed: the purchase was not allowed),
    /// and nothing is charged.
    @discardableResult
    public func declineAskToBuy(_ identifier: String? = nil) -> Bool {
        guard waits(.askToBuy, identifier) else { return false }
        // Released in the commit that keeps the decline for a phone no app of which observes: a kill in between
        // neither asks the parent again nor loses the "no".
        inOneCommit("write down the declined request") {
            guard let payment = take(.askToBuy, identifier) else { return }
            tellDecline(payment)
        }
        return true
    }

    private func tellDecline(_ payment: PendingPayment) {
        // A switch asked on the manage sheet (numbered 0) was never the app's payment: nothing to tell it.
        let asked = payment.paymentNumber > 0
        log(
            "ask to buy declined: \(payment.product.productIdentifier) for \(payment.appleId)",
            event: asked
                ? .askToBuyDeclined(deviceId: payment.deviceId, productId: payment.product.productIdentifier) : nil)
        if asked, let queue = queues[payment.deviceId]?.queue, queue.isObserved {
            queue.deliver(
                queue.failed(payment.paymentNumber, payment.product.productIdentifier, .paymentNotAllowed),
                after: .zero)
        } else if asked {
            // No app of the phone runs (killed, or another phone on screen): the failure waits in Apple's queue for
            // its next launch, which otherwise never heard how the request it was told waits ended (session 39), in
            // this run or, kept on disk, the next (session 40).
            log("no app observes: the decline is kept for \(payment.deviceId)'s next launch")
            keepUnheard(payment)
        }
    }

    /// The reader did what the store asked outside the app: the purchase completes as a new transaction.
    @discardableResult
    public func resolveInterruptedPurchase(_ identifier: String? = nil) -> Bool {
        guard waits(.interrupted, identifier) else { return false }
        // Released in the commit that charges it.
        inOneCommit("write down the resolved purchase") {
            guard let payment = take(.interrupted, identifier) else { return }
            log("interrupted purchase resolved: \(payment.product.productIdentifier) for \(payment.appleId)")
            settle(payment)
        }
        return true
    }

    private func waits(_ kind: PendingPayment.Kind, _ identifier: String?) -> Bool {
        pendingPayments.contains { $0.kind == kind && (identifier == nil || $0.identifier == identifier) }
    }

    private func take(_ kind: PendingPayment.Kind, _ identifier: String?) -> PendingPayment? {
        guard
            let index = pendingPayments.firstIndex(where: {
                $0.kind == kind && (identifier == nil || $0.identifier == identifier)
            })
        else { return nil }
        let payment = pendingPayments.remove(at: index)
        releaseHeld(payment.heldId)
        return payment
    }

    /// Charges a held payment on the device's live queue; with the app not running, the charge is
    /// recorded unfinished and reaches the observer at the next launch.
    private func settle(_ payment: PendingPayment) {
        // At the price the sheet showed, as long as the Apple ID still buys in that currency: a raise since is asked
        // of the subscriber (`agreeToPrice`), never charged unseen (session 25). After a move abroad, as sold there now.
        var payment = payment
        if let sold = product(payment.product.productIdentifier), sold.currencyCode != payment.product.currencyCode {
            // As sold there before any raise: a raise there is then asked, not charged (session 25).
            payment.product =
                catalog.spec(for: sold.productIdentifier).flatMap {
                    Catalog.product($0, storefront: storefront, locale: locale)
                } ?? sold
        }
        if let queue = queues[payment.deviceId]?.queue {
            queue.paymentCount += 1
            queue.complete(
                payment.kind == .askToBuy && payment.paymentNumber > 0 ? payment.paymentNumber : queue.paymentCount,
                payment.product, terms: payment.terms)
        } else {
            _ = logged("charge the approved payment for \(payment.product.productIdentifier)") {
                try purchase(
                    confirmed: payment.product, appleId: payment.appleId, deviceId: payment.deviceId,
                    terms: payment.terms)
            }
        }
    }
}
