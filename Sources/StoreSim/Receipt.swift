import FoundationEssentials
import Signing
import SimKernel

/// The App Store environment a receipt was issued in.
public enum StoreEnvironment: String, Codable, Sendable {
    case sandbox = "Sandbox"
    case production = "Production"
}

/// What an app receipt says: which app, on which device, in which environment, and every
/// in-app purchase of the Apple ID for that app. Sealed with the store's ES256 key.
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
        /// The customer the app named on the payment (`app_account_token`).
        public var appAccountToken: String? = nil
        /// `FAMILY_SHARED` for a purchase a family member shares (`in_app_ownership_type`); nil for PURCHASED.
        public var inAppOwnershipType: String? = nil
    }

    public let bundleId: String
    public let environment: StoreEnvironment
    /// StoreKit's device verification: SHA-384 of the nonce and the device's identifier, base64url.
    /// The identifier itself is never in the receipt, so a copied receipt does not tell whose it was.
    public let deviceVerification: String
    /// A fresh UUID per receipt (lowercase), hashed before the device identifier.
    public let deviceVerificationNonce: String
    public let creationDate: Int64
    public let inApp: [InAppPurchase]

    public init(
        bundleId: String, environment: StoreEnvironment, deviceVerification: String, deviceVerificationNonce: String,
        creationDate: Int64, inApp: [InAppPurchase]
    ) {
        self.bundleId = bundleId
        self.environment = environment
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
        self.creationDate = creationDate
        self.inApp = inApp
    }

    /// `deviceVerification` for a device and a nonce, as StoreKit computes it.
    public static func deviceVerification(nonce: String, deviceId: String) -> String {
        Base64URL.encode(Digest.sha384(Array(nonce.lowercased().utf8) + Array(deviceId.utf8)))
    }

    /// Whether the receipt was issued for `deviceId` (the device identifier the app sends).
    public func wasIssued(for deviceId: String?) -> Bool {
        guard let deviceId else { return false }
        let expected = Self.deviceVerification(nonce: deviceVerificationNonce, deviceId: deviceId)
        return Digest.constantTimeEqual(Array(expected.utf8), Array(deviceVerification.utf8))
    }
}

/// Seals and opens receipts.
public enum ReceiptCodec {
    static func seal(_ payload: ReceiptPayload, with key: SigningKey) -> String {
        SignedEnvelope.seal(payload.canonicalJSON, with: key)
    }

    /// Seals a payload whose canonical JSON is already made (`ReceiptMemo.json(of:)`).
    static func seal(json: [UInt8], with key: SigningKey) -> String {
        SignedEnvelope.seal(json, with: key)
    }

    /// The payload when `receipt` was signed by `key`; nil when forged, tampered or not a receipt.
    public static func open(_ receipt: String, with key: VerifyingKey) -> ReceiptPayload? {
        guard let bytes = SignedEnvelope.open(receipt, with: key) else { return nil }
        return try? JSONDecoder().decode(ReceiptPayload.self, from: Data(bytes))
    }

    /// `receipt` with one character of its payload changed, as a tweak on a jailbroken phone edits what a receipt
    /// claims: the bytes are the real receipt's but one, so its signature no longer holds and `open` refuses it. A
    /// middle character of the base64url payload carries six bits of it, never padding.
    public static func forged(_ receipt: String) -> String {
        var parts = receipt.split(separator: ".", omittingEmptySubsequences: false).map { Array($0.utf8) }
        guard parts.count == 3, !parts[1].isEmpty else { return receipt + "x" }
        let middle = parts[1].count / 2
        parts[1][middle] = parts[1][middle] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        return parts.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ".")
    }

    static func canonicalBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        Array(try canonicalJSON.encode(value))
    }

    public static let canonicalJSON: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()
}
