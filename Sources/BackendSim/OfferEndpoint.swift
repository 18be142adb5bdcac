import Signing
import SimKernel
import StoreSim

/// `POST /v1/offers/sign`: the backend signs a promotional offer for one purchase by a known customer
/// (the key never leaves the server). The store accepts each signature once.
extension Backend {
    struct OfferRequest: Decodable {
        let productId: String
        let offerId: String
        var appAccountToken: String?
    }

    struct OfferSignature: Encodable {
        /// The caller's own token: the signature covers it, so the payment must carry it.
        let appAccountToken: String
        let keyIdentifier: String
        let nonce: String
        let timestamp: Int64
        /// Base64url.
        let signature: String
    }

    func signOffer(_ request: HTTPRequest) -> HTTPResponse {
        answering {
            guard let caller = try authenticate(request) else { throw APIError.unauthorized("token_missing") }
            let body = try JSONBody.decode(OfferRequest.self, from: request)
            guard promotionalOffers[body.productId]?.contains(body.offerId) == true else {
                throw APIError.unprocessable("offer_unknown")
            }
            // Bound to the caller: a signature for another customer's token would let one buy as them.
            let appAccountToken = self.appAccountToken(for: caller.id)
            if let asked = body.appAccountToken, asked.lowercased() != appAccountToken {
                throw APIError.forbidden("offer_not_yours")
            }
            let now = clock().milliseconds
            // Unguessable and never repeated, across restarts too (a counter in memory started over).
            let nonce = Self.uuid(keys.unguessableBytes(16))
            let message = PromotionalOfferMessage.bytes(
                bundleId: bundleId, keyIdentifier: offerKeyIdentifier, productId: body.productId,
                offerId: body.offerId, appAccountToken: appAccountToken, nonce: nonce, timestamp: now)
            timeline.log(.backend, "signed offer \(body.offerId) for \(caller.id)")
            return JSONBody.response(
                200,
                OfferSignature(
                    appAccountToken: appAccountToken, keyIdentifier: offerKeyIdentifier, nonce: nonce,
                    timestamp: now,
                    signature: Base64URL.encode(offerKey.sign(message))))
        }
    }

    /// The customer's appAccountToken: a UUID that names them to the App Store without saying who they
    /// are (derived from the identity under the folder's secret, so nobody else can compute it).
    /// A function of the identity and the folder's secret alone, neither of which changes: kept once derived (an
    /// HMAC-SHA256, asked with every answer that carries access). Bounded: emptied when full.
    public func appAccountToken(for identityId: String) -> String {
        if let kept = accountTokens[identityId] { return kept }
        let token = Self.appAccountToken(for: identityId, keys: keys)
        if accountTokens.count >= 1_024 { accountTokens.removeAll(keepingCapacity: true) }
        accountTokens[identityId] = token
        return token
    }

    /// The same from a folder's keys, for `check --ledger`.
    static func appAccountToken(for identityId: String, keys: Keyring) -> String {
        uuid(keys.tokenSecretKey.mac(Array("app account token \(identityId)".utf8)))
    }

    /// The first 16 bytes as a lowercase UUID, as Apple's nonces are written.
    static func uuid(_ bytes: [UInt8]) -> String { UUIDText.lowercase(bytes) }
}
