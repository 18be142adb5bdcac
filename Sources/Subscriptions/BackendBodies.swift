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
}

struct AccessBody: Decodable {
    let identity: IdentityJSON
    let levels: [AccessLevel]
    let restored: [String]?
    let error: String?

    var access: AccessAnswer {
        AccessAnswer(
            identityId: identity.id, kind: identity.kind, email: identity.email, token: identity.token, levels: levels)
    }
}

struct SessionBody: Decodable {
    let identity: IdentityJSON
    let levels: [AccessLevel]
    let refreshToken: String

    var access: AccessAnswer {
        AccessAnswer(
            identityId: identity.id, kind: identity.kind, email: identity.email, token: identity.token, levels: levels)
    }
}

struct MeBody: Decodable {
    let identity: IdentityJSON
    let levels: [AccessLevel]
    let subscriptions: [SubscriptionSummary]

    var access: AccessAnswer {
        AccessAnswer(
            identityId: identity.id, kind: identity.kind, email: identity.email, token: identity.token, levels: levels)
    }
}

struct InspectBody: Decodable {
    let purchases: [RestorablePurchase]
}

struct ContentBody: Decodable {
    let body: String
}
