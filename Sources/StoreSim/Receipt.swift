import Foundation
import Signing
import SimKernel

/// The App Store environment a receipt was issued in.
public enum StoreEnvironment: String, Codable, Sendable {
    case sandbox = "Sandbox"
    case production = "Production"
}

/// What an app receipt says: which app, on which device, in which environment, and every
/// in-app purchase of the Apple ID for that app. Sealed with the store's Ed25519 key.
public struct ReceiptPayload: Codable, Equatable, Sendable {
    public struct InAppPurchase: Codable, Equatable, Sendable {
        public let transactionId: String
        public let originalTransactionId: String
        public let productId: String
        public let purchaseDate: Int64
        public let expiresDate: Int64?
        /// Set when the purchase was refunded or revoked (`cancellation_date_ms`).
        public var cancellationDate: Int64? = nil
        public var isInIntroOfferPeriod: Bool? = nil
    }

    public let bundleId: String
    public let environment: StoreEnvironment
    public let deviceId: String
    public let creationDate: Int64
    public let inApp: [InAppPurchase]
}

/// Seals and opens receipts.
public enum ReceiptCodec {
    static func seal(_ payload: ReceiptPayload, with key: SigningKey) -> String {
        SignedEnvelope.seal(Array(try! canonicalJSON.encode(payload)), with: key)
    }

    /// The payload when `receipt` was signed by `key`; nil when forged, tampered or not a receipt.
    public static func open(_ receipt: String, with key: VerifyingKey) -> ReceiptPayload? {
        guard let bytes = SignedEnvelope.open(receipt, with: key) else { return nil }
        return try? JSONDecoder().decode(ReceiptPayload.self, from: Data(bytes))
    }

    public static let canonicalJSON: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()
}
