import SimKernel

/// The backend's answers the app reads after nearly every request, read by `QuickJSON` when they are plain
/// (as the backend writes them): Foundation's decoder was most of reading them. A body that is not plain goes
/// to `JSONDecoder`; a plain one without the fields (nil here) is one it refuses too, so what is accepted and
/// refused stays its (`BackendClient.quickly`; `QuickBodiesTests` compares the two).
protocol QuickBody: Decodable {
    init?(quick json: inout QuickFields)
}

extension IdentityJSON {
    /// The identity's fields; `json.failed` tells whether they were all there.
    init(quick json: inout QuickFields) {
        self.init(
            id: json.string("id"), kind: json.string("kind"), token: json.optionalString("token"),
            email: json.optionalString("email"), appAccountToken: json.optionalString("appAccountToken"))
    }
}

extension QuickFields {
    /// The identity and levels an answer leads with; nil when the identity is not all there (the levels'
    /// own failure is `failed`'s, as every other field's).
    mutating func identityAndLevels() -> (IdentityJSON, [AccessLevel])? {
        var identityFields = object("identity")
        let identity = IdentityJSON(quick: &identityFields)
        let levels = strings("levels").map(AccessLevel.init)
        return identityFields.failed ? nil : (identity, levels)
    }
}

extension AccessBody: QuickBody {
    init?(quick json: inout QuickFields) {
        guard let (identity, levels) = json.identityAndLevels() else { return nil }
        self.init(
            identity: identity, levels: levels, levelsUntil: json.optionalInteger("levelsUntil"),
            granting: json.optionalStrings("granting"),
            restored: json.optionalStrings("restored"),
            error: json.optionalString("error"), ownedElsewhere: json.optionalStrings("ownedElsewhere"),
            sharedByFamily: json.optionalStrings("sharedByFamily"),
            transferRefusedUntil: json.optionalInteger("transferRefusedUntil"))
    }
}

extension SessionBody: QuickBody {
    init?(quick json: inout QuickFields) {
        guard let (identity, levels) = json.identityAndLevels() else { return nil }
        let listed = json.optionalObjects("subscriptions")
        var subscriptions: [SubscriptionSummary]?
        if let listed {
            guard let read = SubscriptionSummary.read(listed) else { return nil }
            subscriptions = read
        }
        self.init(
            identity: identity, levels: levels, levelsUntil: json.optionalInteger("levelsUntil"),
            refreshToken: json.string("refreshToken"), subscriptions: subscriptions,
            guestTransferRefusedUntil: json.optionalInteger("transferRefusedUntil"))
    }
}

extension MeBody: QuickBody {
    init?(quick json: inout QuickFields) {
        guard let (identity, levels) = json.identityAndLevels(),
            let subscriptions = SubscriptionSummary.read(json.objects("subscriptions"))
        else { return nil }
        self.init(
            identity: identity, levels: levels, levelsUntil: json.optionalInteger("levelsUntil"),
            subscriptions: subscriptions, transferRefusedUntil: json.optionalInteger("transferRefusedUntil"))
    }
}

extension SubscriptionSummary {
    /// A `subscriptions` member's objects; nil when one lacks a field.
    static func read(_ objects: [QuickFields]) -> [SubscriptionSummary]? {
        var subscriptions: [SubscriptionSummary] = []
        for var fields in objects {
            subscriptions.append(
                SubscriptionSummary(
                    originalTransactionId: fields.optionalString("originalTransactionId"),
                    productId: fields.string("productId"), expires: fields.optionalInteger("expires"),
                    active: fields.bool("active"), autoRenew: fields.bool("autoRenew"),
                    billingIssue: fields.bool("billingIssue"),
                    priceConsentPending: fields.optionalBool("priceConsentPending"),
                    renewsAs: fields.optionalString("renewsAs"),
                    subscriptionGroupIdentifier: fields.optionalString("subscriptionGroupIdentifier"),
                    familyShared: fields.optionalBool("familyShared"), inFreeTrial: fields.optionalBool("inFreeTrial")))
            if fields.failed { return nil }
        }
        return subscriptions
    }
}

extension ErrorBody: QuickBody {
    init?(quick json: inout QuickFields) {
        self.init(error: json.string("error"))
    }
}

extension InspectBody: QuickBody {
    init?(quick json: inout QuickFields) {
        var purchases: [RestorablePurchase] = []
        for var fields in json.objects("purchases") {
            purchases.append(
                RestorablePurchase(
                    originalTransactionId: fields.string("originalTransactionId"),
                    productId: fields.string("productId"), active: fields.bool("active"),
                    owner: fields.string("owner"), restorable: fields.bool("restorable"),
                    refusal: fields.optionalString("refusal"), familyShared: fields.optionalBool("familyShared"),
                    subscriptionGroupIdentifier: fields.optionalString("subscriptionGroupIdentifier")))
            if fields.failed { return nil }
        }
        self.init(purchases: purchases)
    }
}

extension ContentBody: QuickBody {
    init?(quick json: inout QuickFields) {
        self.init(body: json.string("body"))
    }
}
