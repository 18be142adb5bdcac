import AppFlow
import FoundationEssentials
import SimKernel
import Subscriptions

/// What the world shows the checks, the control pane and the reports, read without reaching past it
/// into the store, the backend or the phone.
extension World {
    /// The launch of the app on screen (`ReaderOutcome.launch`).
    public var currentLaunch: Int { device.launchNumber }

    /// The anonymous identities the phones of the world keep in their storage, running or not.
    public var heldAnonymousIdentities: Set<String> {
        Set(storages.values.compactMap { $0.anonymousIdentity?.id })
    }

    /// The phone whose store identifier is `deviceId` (a transaction's), if it is one of the world's.
    public func deviceName(ofStoreDevice deviceId: String) -> String? {
        storages.keys.first { Self.deviceId($0, phoneAppleIds[$0] ?? options.appleId) == deviceId }
    }

    /// When the network last injected a backend fault, or the app last gave up on a request that took
    /// longer than its timeout (flaky latency fails the app as a fault does); nil when neither happened.
    public var lastBackendFault: SimInstant? { [network.lastFault, lastGiveUp].compactMap { $0 }.max() }
    /// When an injected 401 last answered a phone's session refresh.
    var lastRefreshRefusedByFault: SimInstant? { network.lastRefreshRefusedByFault }

    /// When the phone on screen last asked for the full text of `contentId`.
    public func contentRequested(_ contentId: String) -> SimInstant? { device.contentRequested[contentId] }

    /// The paywall's offers as the coordinator reconciled them, and what it left out.
    public var offerCatalog: OfferCatalog { device.coordinator.catalog }

    /// The access levels with full content cached on the phone.
    public var cachedLevels: Set<AccessLevel> { device.storage.cachedLevels }

    /// How many times the App Store charged the world's Apple IDs, the family members' too (`appleIds`).
    public var charges: Int { appleIds.reduce(0) { $0 + store.charges(appleId: $1) } }

    /// How many times the App Store charged `appleId`.
    public func charges(appleId: String) -> Int { store.charges(appleId: appleId) }

    /// How many times the ledger moved a purchase from one owner to another.
    public var ownershipMoves: Int {
        attempt("read the ledger's ownership moves") { try backend.ledger.moves().count } ?? 0
    }

    /// The first phone name `iphone-N` (N from 2) the world has not used, here or in its state folder.
    public var freeDeviceName: String {
        let state = options.stateDirectory
        for number in 2... {
            let name = "iphone-\(number)"
            let onDisk = state.map { FileManager.default.fileExists(atPath: "\($0)/devices/\(name)") } ?? false
            if storages[name] == nil && !onDisk { return name }
        }
        fatalError("unreachable: the names never run out")
    }
}
