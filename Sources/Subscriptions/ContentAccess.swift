/// Full content: from the per-level cache, or fetched with the reader's identity and cached for the level.
extension SubscriptionCoordinator {
    public func fullContent(
        _ contentId: String, requiredLevels: [String], completion: @escaping (Result<String, BackendFailure>) -> Void
    ) {
        let held = requiredLevels.map(AccessLevel.init).filter(access.levels.contains).sorted()
        if let level = held.first, let cached = storage.cachedContent(contentId, level: level) {
            return completion(.success(cached))
        }
        // A level only the phone's anonymous identity holds (signed in, not yet moved) is fetched as that identity.
        let account = Set(storage.accountSession?.levels ?? [])
        let asPhone = storage.anonymousIdentity.flatMap { anonymous in
            storage.accountSession != nil && !held.contains(where: account.contains)
                ? BackendCredentials.anonymous(token: anonymous.token) : nil
        }
        backend.fullContent(contentId, as: asPhone) { [self] result in
            if case .success(let body) = result, let level = held.first, access.levels.contains(level) {
                storage.cacheContent(contentId, level: level, body: body)
            }
            // The server says the level is gone (expired, refunded): what the phone holds is stale.
            if case .failure(.refused(403, "level_required")) = result {
                if asPhone != nil { reloadPhoneIdentity() } else { reloadAccess() }
            }
            completion(result)
        }
    }
}
