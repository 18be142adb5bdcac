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

extension AccessBody: QuickBody {
    init?(quick json: inout QuickFields) {
        var identityFields = json.object("identity")
        let identity = IdentityJSON(quick: &identityFields)
        self.init(
            identity: identity, levels: json.strings("levels").map(AccessLevel.init),
            restored: json.optionalStrings("restored"), error: json.optionalString("error"),
            ownedElsewhere: json.optionalStrings("ownedElsewhere"))
        if identityFields.failed { return nil }
    }
}

extension SessionBody: QuickBody {
    init?(quick json: inout QuickFields) {
        var identityFields = json.object("identity")
        let identity = IdentityJSON(quick: &identityFields)
        self.init(
            identity: identity, levels: json.strings("levels").map(AccessLevel.init),
            refreshToken: json.string("refreshToken"))
        if identityFields.failed { return nil }
    }
}

extension MeBody: QuickBody {
    init?(quick json: inout QuickFields) {
        var identityFields = json.object("identity")
        let identity = IdentityJSON(quick: &identityFields)
        var subscriptions: [SubscriptionSummary] = []
        for var fields in json.objects("subscriptions") {
            subscriptions.append(
                SubscriptionSummary(
                    productId: fields.string("productId"), expires: fields.optionalInteger("expires"),
                    active: fields.bool("active"), autoRenew: fields.bool("autoRenew"),
                    billingIssue: fields.bool("billingIssue")))
            if fields.failed { return nil }
        }
        self.init(
            identity: identity, levels: json.strings("levels").map(AccessLevel.init), subscriptions: subscriptions)
        if identityFields.failed { return nil }
    }
}

extension ErrorBody: QuickBody {
    init?(quick json: inout QuickFields) {
        self.init(error: json.string("error"))
    }
}
