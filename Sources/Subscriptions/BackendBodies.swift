import SimKernel

/// The JSON bodies of the backend contract as the app reads and writes them (docs/BACKEND-API.md).
struct ReceiptBody: Encodable {
    let receipt: String
    let confirmMoveFromAccount: Bool?
}

struct ErrorBody: Decodable {
    let error: String
}

struct IdentityJSON: Decodable {
    let id: String
    let kind: String
    let token: String?
    let email: String?
    let appAccountToken: String?
}

struct AccessBody: IdentityAnswerBody {
    let identity: IdentityJSON
    let levels: [AccessLevel]
    let levelsUntil: Int64?
    /// The identity's purchases that give it levels now (nil from a server that does not say).
    let granting: [String]?
    let restored: [String]?
    let error: String?
    /// Purchases of the receipt that stay with another customer (`POST /v1/receipts`).
    let ownedElsewhere: [String]?
    /// Those of `granting` a family member pays for, shared with the Apple ID (nil when none is, or unsaid).
    var sharedByFamily: [String]? = nil
    /// A guest's: until when its move to an account would be refused for the move limit.
    var transferRefusedUntil: Int64? = nil
}

struct SessionBody: IdentityAnswerBody {
    let identity: IdentityJSON
    let levels: [AccessLevel]
    let levelsUntil: Int64?
    let refreshToken: String
    /// nil from a server older than the field.
    let subscriptions: [SubscriptionSummary]?
    /// The guest's whose token the sign-in carried (`SessionAnswer.guestTransferRefusedUntil`).
    var guestTransferRefusedUntil: Int64? = nil
    /// Of the account: never said.
    var transferRefusedUntil: Int64? { nil }

    var answer: SessionAnswer {
        var answer = SessionAnswer(access: access, refreshToken: refreshToken, subscriptions: subscriptions)
        answer.guestTransferRefusedUntil = guestTransferRefusedUntil.map(SimInstant.init(milliseconds:))
        return answer
    }

    private enum CodingKeys: String, CodingKey {
        case identity, levels, levelsUntil, refreshToken, subscriptions
        case guestTransferRefusedUntil = "transferRefusedUntil"
    }
}

struct MeBody: IdentityAnswerBody {
    let identity: IdentityJSON
    let levels: [AccessLevel]
    let levelsUntil: Int64?
    let subscriptions: [SubscriptionSummary]
    var transferRefusedUntil: Int64? = nil
}

struct InspectBody: Decodable {
    let purchases: [RestorablePurchase]
}

struct ContentBody: Decodable {
    let body: String
}

/// A body that answers with an identity and its levels.
protocol IdentityAnswerBody: Decodable {
    var identity: IdentityJSON { get }
    var levels: [AccessLevel] { get }
    /// When the levels could first end by themselves, server milliseconds; nil from a server that does not say.
    var levelsUntil: Int64? { get }
    /// A guest's: until when its move to an account would be refused for the move limit, server milliseconds.
    var transferRefusedUntil: Int64? { get }
}

extension AccessBody {
    var access: AccessAnswer {
        AccessAnswer(
            identityId: identity.id, kind: identity.kind, email: identity.email, token: identity.token, levels: levels,
            ownedElsewhere: ownedElsewhere ?? [], granting: granting,
            levelsUntil: levelsUntil.map(SimInstant.init(milliseconds:)), sharedByFamily: sharedByFamily ?? [],
            transferRefusedUntil: transferRefusedUntil.map(SimInstant.init(milliseconds:)))
    }
}

extension IdentityAnswerBody {
    var access: AccessAnswer {
        AccessAnswer(
            identityId: identity.id, kind: identity.kind, email: identity.email, token: identity.token, levels: levels,
            appAccountToken: identity.appAccountToken, levelsUntil: levelsUntil.map(SimInstant.init(milliseconds:)),
            transferRefusedUntil: transferRefusedUntil.map(SimInstant.init(milliseconds:)))
    }
}

/// `POST /v1/offers/sign`'s answer.
struct OfferSignatureBody: Decodable {
    let appAccountToken: String
    let keyIdentifier: String
    let nonce: String
    let timestamp: Int64
    let signature: String

    func signed(_ offerId: String) -> SignedOffer {
        SignedOffer(
            offerId: offerId, keyIdentifier: keyIdentifier, nonce: nonce, signature: signature, timestamp: timestamp,
            appAccountToken: appAccountToken)
    }
}
