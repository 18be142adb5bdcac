import SimKernel

/// The app's request bodies the backend reads on nearly every sign-in, refresh, move and notification, read
/// by `QuickJSON` when they are plain (as the app and the store write them): Foundation's decoder was a
/// fortieth of a fuzz step. A body that is not plain goes to `JSONDecoder`; a plain one without the fields is
/// one it refuses too (`JSONBody.decode`; `QuickRequestBodiesTests` compares the two).
protocol QuickRequestBody: Decodable {
    init?(quick json: inout QuickFields)
}

extension Backend.Credentials: QuickRequestBody {
    init?(quick json: inout QuickFields) {
        self.init(
            email: json.string("email"), password: json.string("password"),
            anonymousToken: json.optionalString("anonymousToken"))
    }
}

extension Backend.RefreshRequest: QuickRequestBody {
    init?(quick json: inout QuickFields) {
        self.init(refreshToken: json.string("refreshToken"))
    }
}

extension Backend.TransferRequest: QuickRequestBody {
    init?(quick json: inout QuickFields) {
        self.init(anonymousToken: json.string("anonymousToken"))
    }
}

extension Backend.OfferRequest: QuickRequestBody {
    init?(quick json: inout QuickFields) {
        self.init(
            productId: json.string("productId"), offerId: json.string("offerId"),
            appAccountToken: json.optionalString("appAccountToken"))
    }
}

extension Backend.NotificationRequest: QuickRequestBody {
    init?(quick json: inout QuickFields) {
        self.init(signedPayload: json.string("signedPayload"))
    }
}
