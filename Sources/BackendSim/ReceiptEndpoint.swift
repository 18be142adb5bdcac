import SimKernel
import StoreSim

/// `POST /v1/receipts`: the app reports a receipt after paying. The server asks the App Store for
/// the truth, links each purchase nobody owns to the caller (creating an anonymous identity when
/// the caller has none), and answers with the caller's identity, token and levels.
extension Backend {
    struct ReceiptRequest: Decodable {
        let receipt: String
    }

    struct IdentityBody: Encodable {
        let id: String
        let kind: String
        let token: String?
    }

    struct AccessBody: Encodable {
        let identity: IdentityBody
        let levels: [String]
        /// Purchases in the receipt that stay with another customer.
        let ownedElsewhere: [String]
    }

    func validateReceipt(_ request: HTTPRequest) -> HTTPResponse {
        do {
            let caller = try authenticate(request)
            let body = try JSONBody.decode(ReceiptRequest.self, from: request)
            let records = try verifiedTransactions(body.receipt)
            let now = clock()
            let (identity, elsewhere) = try ledgerChange { () throws -> (IdentityRecord, [String]) in
                var owner = caller
                var elsewhere: [String] = []
                for record in records {
                    if let known = try ledger.purchase(record.originalTransactionIdentifier) {
                        if known.expires != record.expiresDate {
                            try ledger.updateExpiry(known.originalTransactionId, to: record.expiresDate, at: now)
                        }
                        if known.ownerId != owner?.id { elsewhere.append(known.originalTransactionId) }
                        continue
                    }
                    let identity = try owner ?? ledger.createAnonymousIdentity(at: now)
                    owner = identity
                    try ledger.insert(
                        PurchaseRecord(
                            originalTransactionId: record.originalTransactionIdentifier,
                            productId: record.productIdentifier, ownerId: identity.id, deviceId: record.deviceId,
                            expires: record.expiresDate), at: now)
                }
                guard let owner else { throw APIError.unprocessable("nothing_to_validate") }
                return (owner, elsewhere)
            }
            return JSONBody.response(
                200,
                AccessBody(
                    identity: IdentityBody(
                        id: identity.id, kind: identity.kind.rawValue,
                        token: caller == nil ? tokens.issue(for: identity, now: now, lifetime: Self.tokenLifetime) : nil
                    ),
                    levels: levels(of: identity.id), ownedElsewhere: elsewhere))
        } catch let error as APIError {
            return error.response
        } catch {
            return JSONBody.response(500, ["error": "ledger_unavailable"])
        }
    }

    /// The store's records of the receipt's purchases, once the receipt is proven to be this app's.
    private func verifiedTransactions(_ receipt: String) throws(APIError) -> [TransactionRecord] {
        switch store.verifyReceipt(receipt, expecting: environment) {
        case .invalid(let status):
            timeline.log(.backend, "App Store refused the receipt: \(status.rawValue)")
            throw .unprocessable(status == .sandboxReceiptSentToProduction ? "receipt_sandbox" : "receipt_invalid")
        case .valid(let payload, let transactions):
            guard payload.bundleId == bundleId else { throw .unprocessable("receipt_other_app") }
            return transactions
        }
    }

    private func ledgerChange<T>(_ body: () throws -> T) throws -> T {
        try ledger.change(body)
    }
}

/// `GET /v1/me`: the caller's identity and levels.
extension Backend {
    func me(_ request: HTTPRequest) -> HTTPResponse {
        do {
            guard let identity = try authenticate(request) else { throw APIError.unauthorized("token_missing") }
            return JSONBody.response(
                200,
                AccessBody(
                    identity: IdentityBody(id: identity.id, kind: identity.kind.rawValue, token: nil),
                    levels: levels(of: identity.id), ownedElsewhere: []))
        } catch let error as APIError {
            return error.response
        } catch {
            return APIError.unauthorized("token_invalid").response
        }
    }
}
