/// Full content: from the per-level cache, or fetched with the reader's identity and cached for the level.
extension SubscriptionCoordinator {
    public func fullContent(
        _ contentId: String, requiredLevels: [String], completion: @escaping (Result<String, BackendFailure>) -> Void
    ) {
        let held = requiredLevels.map(AccessLevel.init).filter(access.levels.contains).sorted()
        if let level = held.first, let cached = storage.cachedContent(contentId, level: level) {
            return completion(.success(cached))
        }
        backend.fullContent(contentId) { [self] result in
            if case .success(let body) = result, let level = held.first, access.levels.contains(level) {
                storage.cacheContent(contentId, level: level, body: body)
            }
            // The server says the level is gone (expired, refunded): what the phone holds is stale.
            if case .failure(.refused(403, "level_required")) = result { reloadAccess() }
            completion(result)
        }
    }
}
