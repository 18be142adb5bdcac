import Signing

/// A promotional offer applied to a payment, as StoreKit's `SKPaymentDiscount`: which offer, and the
/// backend's signature for this one purchase.
public struct PaymentDiscount: Equatable, Sendable {
    public let identifier: String
    public let keyIdentifier: String
    /// A fresh value per signature: a nonce seen before is a replay.
    public let nonce: String
    public let signature: [UInt8]
    /// Virtual milliseconds when the backend signed it.
    public let timestamp: Int64

    public init(identifier: String, keyIdentifier: String, nonce: String, signature: [UInt8], timestamp: Int64) {
        self.identifier = identifier
        self.keyIdentifier = keyIdentifier
        self.nonce = nonce
        self.signature = signature
        self.timestamp = timestamp
    }
}

/// What a promotional offer's signature covers, in Apple's order, joined by U+2063 as Apple joins them.
public enum PromotionalOfferMessage {
    public static func bytes(
        bundleId: String, keyIdentifier: String, productId: String, offerId: String, appAccountToken: String,
        nonce: String, timestamp: Int64
    ) -> [UInt8] {
        let parts = [
            bundleId, keyIdentifier, productId, offerId, appAccountToken.lowercased(), nonce.lowercased(),
            "\(timestamp)",
        ]
        return Array(parts.joined(separator: "\u{2063}").utf8)
    }
}

extension AppStore {
    /// How long a signature stays valid, as Apple's 24 hours.
    static let offerSignatureLifetime: Int64 = 86_400_000

    /// App Store Connect learns the backend's In-App Purchase key: its public half verifies offer signatures.
    /// Read when an offer is first checked, so a world that sells none never derives the key.
    public func registerOfferKey(_ identifier: String, _ key: @escaping () -> VerifyingKey?) {
        offerKeys[identifier] = key
    }

    /// Why a promotional offer cannot apply to this payment, or nil when it can (the nonce is then spent).
    func refusal(of discount: PaymentDiscount, productId: String, appleId: String, appAccountToken: String)
        -> StoreError?
    {
        guard let spec = catalog.spec(for: productId),
            let offer = spec.promotionalOffers?.first(where: { $0.id == discount.identifier })
        else { return .invalidOfferIdentifier }
        // A win-back offer is for a lapsed subscriber only.
        if offer.winBack == true, let product = product(productId), !isEligibleForWinBack(product, appleId: appleId) {
            return .ineligibleForOffer
        }
        guard !discount.nonce.isEmpty, !discount.signature.isEmpty else { return .missingOfferParams }
        guard let key = offerKeys[discount.keyIdentifier]?() ?? nil else { return .invalidSignature }
        let message = PromotionalOfferMessage.bytes(
            bundleId: bundleId, keyIdentifier: discount.keyIdentifier, productId: productId,
            offerId: discount.identifier, appAccountToken: appAccountToken, nonce: discount.nonce,
            timestamp: discount.timestamp)
        guard key.isValidSignature(discount.signature, for: message) else { return .invalidSignature }
        guard scheduler.now.milliseconds - discount.timestamp <= Self.offerSignatureLifetime else {
            return .invalidSignature
        }
        do {
            // Kept in appstore.sqlite: a nonce spent before a restart stays spent after it.
            guard try ledger.spendOfferNonce(discount.nonce.lowercased(), at: scheduler.now) else {
                return .invalidSignature
            }
        } catch {
            log("promotional offer: the store's records failed (\(error))")
            return .unknown
        }
        return nil
    }
}
