import AppFlow
import BackendSim
import StoreSim
import Subscriptions

/// The guarantees that hold of the world at any instant, checked from the outside: the phone's
/// state against the backend's words, the ledger, the App Store and the owner's config.
extension World {
    /// The reader's subscriptions the App Store counts as paid for now: active or in grace, and not
    /// past their end (a reopened world may not have run an expiry yet).
    public var paidSubscriptions: [SubscriptionRecord] {
        let now = scheduler.now
        return keptEntitledSubscriptions.filter {
            switch $0.state {
            case .active: $0.expiresDate > now
            case .gracePeriod: ($0.gracePeriodExpiresDate ?? $0.expiresDate) > now
            case .billingRetry, .expired, .revoked: false
            }
        }
    }

    /// Read again only after the store wrote: the monitor asks after every step, and most steps write nothing.
    private var keptEntitledSubscriptions: [SubscriptionRecord] {
        let version = store.recordsVersion
        if let kept = entitledKept, kept.appleId == appleId, kept.version == version { return kept.records }
        let records = store.entitledSubscriptions(appleId: appleId)
        entitledKept = version.map { (appleId, $0, records) }
        return records
    }

    /// While the app is dead (`kill`), its last screen is frozen: only the store and the ledger are checked.
    /// `paid`: `paidSubscriptions` now.
    func stateViolations(offersExact: Bool, paid: [SubscriptionRecord]) -> [InvariantViolation] {
        // 13: the profile can say what Apple's sheet says only if Apple told the server.
        let untold = paid.compactMap {
            store.untoldRenewalChange($0).map { InvariantViolation(.sheetsTellTheTruth, $0) }
        }
        let everywhere = groupViolations(paid) + ledgerViolations() + untold
        guard isAppRunning else { return everywhere }
        return heardViolations() + contentViolations() + paymentViolations() + adsViolations()
            + offerViolations(exact: offersExact) + everywhere
    }

    /// 1: the phone's levels are among those the backend last told it for the identity it shows.
    private func heardViolations() -> [InvariantViolation] {
        let access = appState.access
        let levels = Set(access.levels.map(\.rawValue))
        guard !levels.isEmpty else { return [] }
        let identityId: String?
        switch access.identity {
        case .none: identityId = nil
        case .anonymous(let id): identityId = id
        case .account(let email):
            do {
                identityId = try backend.ledger.identityId(email: email)
            } catch {
                return [InvariantViolation(.backendsWord, "the identity of \(email) cannot be read: \(error)")]
            }
        }
        var heard = identityId.map { words.levels(on: deviceName, identityId: $0) } ?? []
        // Signed in, the phone's own anonymous subscription counts until it moves: the backend's word for it too.
        if case .account = access.identity, let phone = device.storage.anonymousIdentity {
            heard.formUnion(words.levels(on: deviceName, identityId: phone.id))
        }
        guard !levels.isSubset(of: heard) else { return [] }
        return [
            InvariantViolation(
                .backendsWord,
                "\(deviceName) shows levels \(WorldReading.list(levels)) for \(WorldReading.describe(access.identity)) but the backend told it \(WorldReading.list(heard))"
            )
        ]
    }

    /// 2: full content only where the levels meet it, and no cache for a level not held.
    private func contentViolations() -> [InvariantViolation] {
        let state = appState
        var found: [InvariantViolation] = []
        for item in state.app.content where !state.access.unlocks(item.requiredLevels) {
            if case .loaded = state.fullContent[item.id] {
                found.append(
                    InvariantViolation(
                        .contentFollowsLevels,
                        "the full \(item.id) is loaded without \(item.requiredLevels.joined(separator: " or "))"))
            }
        }
        let stray = cachedLevels.subtracting(state.access.levels)
        if !stray.isEmpty {
            found.append(
                InvariantViolation(
                    .contentFollowsLevels,
                    "full content of \(WorldReading.list(Set(stray.map(\.rawValue)))) is cached but the reader holds \(WorldReading.list(Set(state.access.levels.map(\.rawValue))))"
                ))
        }
        return found
    }

    /// 3: never two paid subscriptions at once in one group for the Apple ID.
    private func groupViolations(_ paid: [SubscriptionRecord]) -> [InvariantViolation] {
        Dictionary(grouping: paid, by: \.groupId).filter { $0.value.count > 1 }.sorted {
            $0.key < $1.key
        }.map { group, subscriptions in
            InvariantViolation(
                .noDoubleCharge,
                "\(appleId) pays for \(subscriptions.count) subscriptions of group \(group): \(subscriptions.map(\.productId).joined(separator: ", "))"
            )
        }
    }

    /// 4: the app never lets a second payment start while one runs, whichever launch of the app handed the first to
    /// Apple (a restart mid-payment hid it, session 27). A request waiting for a parent runs until the
    /// parent answers or it lapses (seed 000: "the request stays open"): a second payment of its group, on the sheet or
    /// held too, is one more (two requests of one group waited at once, and both approvals charged, session 26). A
    /// switch asked on Apple's manage sheet (numbered 0) is not the app's payment.
    private func paymentViolations() -> [InvariantViolation] {
        let open = device.queue.paymentsInFlight
        guard open.count <= 1 else {
            return [InvariantViolation(.onePaymentAtATime, "\(open.count) payments in flight on \(deviceName)")]
        }
        let catalog = store.catalog
        let group = { (productId: String) in catalog.spec(for: productId)?.subscriptionGroup ?? productId }
        let requests = store.pendingAskToBuy.filter { $0.appleId == appleId && $0.paymentNumber > 0 }
        let deviceId = device.queue.deviceId
        for request in requests {
            let held = requests.filter { $0.identifier != request.identifier }.map(\.product.productIdentifier)
            // The request's own payment is in flight until the app hears it deferred.
            let sent = open.filter { !(request.deviceId == deviceId && $0.key == request.paymentNumber) }.map(\.value)
            guard let second = (held + sent).first(where: { group($0) == group(request.product.productIdentifier) })
            else { continue }
            return [
                InvariantViolation(
                    .onePaymentAtATime,
                    "a payment for \(second) started while \(request.identifier) (\(request.product.productIdentifier)) "
                        + "of the same group waited for a parent")
            ]
        }
        return []
    }

    /// 6: the ledger's own invariants, among them at most 3 moves in 30 days.
    private func ledgerViolations() -> [InvariantViolation] {
        let found: [String]
        do {
            found = try LedgerCheck.violations(in: backend.ledger, continuing: &auditScan)
        } catch {
            found = ["the ledger cannot be read: \(error)"]
        }
        return found.map { InvariantViolation(.ownershipMoves, $0) }
    }

    /// 6 in full: SQLite's `integrity_check` (it reads every page) and the whole audit chain from its first
    /// row, which the check after each step reads only from where it stopped: at the end of a session.
    public func ledgerViolationsInFull() -> [InvariantViolation] {
        let found: [String]
        do {
            found = try LedgerCheck.violations(in: backend.ledger)
        } catch {
            found = ["the ledger cannot be read: \(error)"]
        }
        return found.map { InvariantViolation(.ownershipMoves, $0) }
    }

    /// 7: the feed shows ads exactly when the owner shows them to this reader.
    private func adsViolations() -> [InvariantViolation] {
        let shown = feedRows.contains { $0.kind == .ad }
        let ads = config.app.ads
        let expected = ads.enabled && !(ads.hideForSubscribers && !appState.access.levels.isEmpty)
        guard shown != expected else { return [] }
        return [
            InvariantViolation(
                .survivesRestartAndAds,
                "the feed \(shown ? "shows" : "hides") ads for a reader with levels \(WorldReading.list(Set(appState.access.levels.map(\.rawValue))))"
            )
        ]
    }

    /// The feed's rows in this state. On the feed with no sheet over it, they are the rows of the screen the
    /// phone keeps (an alert, the highlight and what lies beneath in the stack change no row).
    private var feedRows: [Row] {
        if appState.route == .feed && appState.paymentSheet == nil {
            assert(screen.rows == builtFeedRows, "the kept feed is not the feed built from the state")
            return screen.rows
        }
        return builtFeedRows
    }

    private var builtFeedRows: [Row] { device.feedRows }

    /// 8: the paywall's offers are configured ones, in the owner's order, that the store returned. Read as the paywall
    /// shows them (a subscriber's leaves out the groups held), not as the app keeps the store's answer (session 28).
    private func offerViolations(exact: Bool) -> [InvariantViolation] {
        guard let offers = appState.paywallOffers else { return [] }
        let configured = config.app.subscriptions
        var next = configured.startIndex
        for offer in offers {
            guard let index = configured[next...].firstIndex(where: { $0.id == offer.id }),
                configured[index].productId == offer.productId
            else {
                return [
                    InvariantViolation(
                        .paywallOffers,
                        "offer \(offer.id) (\(offer.productId)) is not configured there; the owner's order is \(configured.map(\.id).joined(separator: ", "))"
                    )
                ]
            }
            next = index + 1
        }
        guard exact else { return [] }
        // Less the plans of the groups the profile lists the reader as holding (the account's and, signed in, the
        // phone's own not moved to it): those are sold to them on the profile. Read from the profile's list, not the
        // paywall's own notion of it, which left out the phone's subscription (h14, session 33).
        let held: Set<String> =
            appState.access.isSubscriber
            ? Set(
                appState.profileSubscriptions.filter(\.active).compactMap {
                    $0.subscriptionGroupIdentifier ?? store.catalog.spec(for: $0.productId)?.subscriptionGroup
                }) : []
        let sold = sold(held: held)
        guard offers.map(\.id) != sold else { return [] }
        return [
            InvariantViolation(
                .paywallOffers,
                "the paywall shows \(offers.map(\.id).joined(separator: ", ")) but configured ∩ sold here, less the "
                    + "groups held, is \(sold.joined(separator: ", "))"
            )
        ]
    }

    /// The configured offers sold in the store's storefront, less the plans of the groups `held`, in the owner's order;
    /// kept while the storefront and the groups stay (the catalog is looked up for each offer: a hundredth of a step).
    private func sold(held: Set<String>) -> [String] {
        let storefront = store.storefront
        if let kept = soldKept, kept.storefront == storefront, kept.held == held { return kept.sold }
        let sold = config.app.subscriptions.filter {
            store.catalog.sells($0.productId, in: storefront)
                && !(store.catalog.spec(for: $0.productId)?.subscriptionGroup.map(held.contains) ?? false)
        }.map(\.id)
        soldKept = (storefront, held, sold)
        return sold
    }
}
