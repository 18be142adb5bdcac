import SimKernel

/// `GET /v1/content/{id}`: the full version of a piece of content, only for an identity
/// holding one of its required levels.
extension Backend {
    struct ContentBody: Encodable {
        let id: String
        let body: String
    }

    func content(_ request: HTTPRequest, id: String) -> HTTPResponse {
        guard let required = requiredLevels[id] else { return APIError.notFound.response }
        return answering {
            let identity = try authenticate(request)
            if !required.isEmpty {
                let held =
                    try identity.map { identity in
                        try ledgerChange { () throws -> Set<String> in
                            Set(levels(in: try refreshLapsedRenewals(of: identity.id)))
                        }
                    } ?? []
                guard !held.isDisjoint(with: required) else { throw APIError.forbidden("level_required") }
            }
            guard let body = fullContent[id] else { return APIError.notFound.response }
            return JSONBody.response(200, ContentBody(id: id, body: body))
        }
    }
}
