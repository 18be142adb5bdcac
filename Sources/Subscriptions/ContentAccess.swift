/// Full content: from the per-level cache, or fetched with the reader's identity and cached for the level.
extension SubscriptionCoordinator {
    /// `retried`: the second ask after a refusal (for the account, or for the phone's identity); never a third.
    public func fullContent(
        _ contentId: String, requiredLevels: [String], retried: Bool = false,
        completion: @escaping (Result<String, BackendFailure>) -> Void
    ) {
        // Not from the cache past the end the server gave its levels without asking again (`LevelsEnd`).
        if lapsedLevelsEnd != nil {
            return askAgainIfLevelsEnded { [self] in
                fullContent(contentId, requiredLevels: requiredLevels, retried: retried, completion: completion)
            }
        }
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
            guard case .failure(.refused(403, "level_required")) = result else { return completion(result) }
            if asPhone != nil {
                reloadPhoneIdentity()
                // The phone's identity gave the level away, most likely to the account (a transfer): asked again,
                // the choice above asks as the account when it holds the level.
                let accountNow = Set(storage.accountSession?.levels ?? [])
                let accountHolds = requiredLevels.map(AccessLevel.init).contains(where: accountNow.contains)
                guard accountHolds, !retried else { return completion(result) }
                return fullContent(contentId, requiredLevels: requiredLevels, retried: true, completion: completion)
            }
            reloadAccess { [self] _ in
                // The account's level is gone, yet the phone still holds it through its own anonymous
                // subscription (not moved to the account): asked again, the choice above asks as the phone.
                let still = requiredLevels.map(AccessLevel.init).contains(where: access.levels.contains)
                guard still, !retried else { return completion(result) }
                fullContent(contentId, requiredLevels: requiredLevels, retried: true, completion: completion)
            }
        }
    }
}
