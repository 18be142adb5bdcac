extension SubscriptionCoordinator {
    /// The family's share of `products` was taken away while the app runs (StoreKit 1's
    /// `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)`, the receipt already updated): the server is asked,
    /// reading Apple's records first, so the levels the share gave go now, with the articles kept for them, and the ads
    /// come back (seed 000: "When a reader loses a level, the full versions kept for it are deleted"). Until session 38
    /// a member's running app kept them until it next became active: the share's articles read on, ad-free.
    func entitlementsRevoked(_ products: [String]) {
        guard storage.accountSession != nil || storage.anonymousIdentity != nil else {
            // Signed out with no guest: the next sign-in's answer may be older than Apple's word (long fuzz seed 1939).
            log("Apple took back the family's share of \(products.joined(separator: ", ")): asked at the next sign-in")
            revocationUnasked = true
            return
        }
        log("Apple took back the family's share of \(products.joined(separator: ", ")): asking the server")
        reloadAccess(askingApple: true)
    }
}
