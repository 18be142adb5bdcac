import AppFlow
import BackendSim
import FoundationEssentials
import Signing
import SimKernel
import StoreSim
import Subscriptions
import WhiteLabel

/// How a world is set up.
public struct WorldOptions: Sendable {
    public var seed: UInt64
    public var latency: LatencyProfile
    /// Where `appstore.sqlite`, `backend.sqlite` and `devices/` live; nil keeps everything in memory.
    public var stateDirectory: String?
    public var appleId: String
    /// The phone on screen at launch: for a state folder reopened with `reopensLastPhone`, only when it records none.
    public var deviceName: String
    /// A state folder reopens on the phone its last run left on screen (`run`), not on `deviceName`.
    public var reopensLastPhone = false
    /// PBKDF2 iterations for new passwords; nil: full for a state folder, minimal in memory.
    public var passwordIterations: Int?
    /// How long the server keeps an unused account session; nil: its own (a year and Apple's billing retry).
    public var refreshTokenLifetime: SimDuration?
    public static let minimalPasswordIterations = PasswordHash.minimalIterations
    /// The phone a world starts with unless told otherwise.
    public static let firstPhone = "iphone"

    public init(
        seed: UInt64 = 1, latency: LatencyProfile = .typical, stateDirectory: String? = nil,
        appleId: String = "reader@icloud.test", deviceName: String = WorldOptions.firstPhone,
        passwordIterations: Int? = nil
    ) {
        self.passwordIterations = passwordIterations
        self.seed = seed
        self.latency = latency
        self.stateDirectory = stateDirectory
        self.appleId = appleId
        self.deviceName = deviceName
    }
}

/// Why a world could not be assembled (a state directory that cannot be written, a bad catalog).
public struct WorldSetupError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// The whole simulated world, assembled in one place: one scheduler, one App Store, one backend,
/// the phone with its coordinator and app, and the timeline of every message. The terminal and the
/// headless tests drive this same world.
public final class World {
    public let config: DemoConfig
    public let scheduler: Scheduler
    public let timeline: Timeline
    /// The fake App Store and the platform server: reached only through the world's controls and readings.
    let store: AppStore
    let backend: Backend
    /// The phone on screen; `newDevice` and `restartApp` replace it.
    var device: Device
    let options: WorldOptions
    let network: SimulatedNetwork
    /// Where each launch's parental gate draws its questions (`AppState.gateDraws`): split from the seed after the
    /// store's and the network's, so they draw what they drew before.
    var gateDraws: SeededGenerator
    /// Each phone's storage by name: what survives a restart of the app.
    var storages: [String: PhoneStorage] = [:]
    /// The phones the state folder held from earlier runs, read once: one process owns the folder, and a frame reads
    /// `phones` for the control pane.
    lazy var keptPhones: [String] = Self.phoneFolders(in: options.stateDirectory)
    /// The Apple ID each phone is signed into, when not the world's (a family member's phone).
    var phoneAppleIds: [String: String] = [:] { didSet { appleIdsKept = nil } }
    /// `appleIds` as last built from `phoneAppleIds` (the invariant monitor asks before and after every step).
    var appleIdsKept: [String]?
    /// The question each phone's parental gate asked last, by phone: the app keeps it on that phone, so its next
    /// launch does not ask it first, even after other phones were on screen (long fuzz seeds 1202 to 1216).
    var lastGateQuestions: [String: String] = [:]
    /// When the app finishes the store's transaction; applies to every launch from now on.
    public var finishPolicy = SubscriptionCoordinator.FinishPolicy.beforeServerCheck {
        didSet {
            device.coordinator.finishPolicy = finishPolicy
            timeline.log(
                .control,
                "finish transactions \(finishPolicy == .beforeServerCheck ? "before" : "after") the server check")
        }
    }

    /// Told what each reader input on the phone means (any phone: it follows restarts and new devices).
    public var onReaderAction: ((ReaderAction) -> Void)?

    /// What the backend told each phone, for the invariant checks.
    var words = BackendWords()
    /// How far the invariant checks have read the ledger's audit chain.
    var auditScan = AuditScan()
    /// The Apple ID's entitled subscriptions as last read, with the store's records version then.
    var entitledKept: (appleId: String, version: UInt32, records: [SubscriptionRecord])?
    /// The configured offers the store sells in a storefront, less the groups held (`offerViolations`): the catalog and
    /// the config are fixed for the world's life, so the answer changes only with the storefront and the groups held.
    var soldKept: (storefront: Storefront, held: Set<String>, sold: [String])?
    /// `chargedTransactions`' ids, kept with the list (`ChargedIds`).
    var chargedIds = ChargedIds()
    /// When the app on screen last gave up on a request after its timeout.
    var lastGiveUp: SimInstant?
    /// When the app on screen last gave up on a request other than the receipt check (`POST /v1/receipts`): what it
    /// asked then went unheard, as under a fault fired on that request (`ToldCheck.onlyReceiptFaults`).
    var lastGiveUpBesideReceipts: SimInstant?

    /// Every purchase, restore and account outcome the app was told, on any phone, in order.
    public private(set) var readerOutcomes: [ReaderOutcome] = []
    /// When an app on screen was last quit (killed, restarted, or left for another phone): the answers it
    /// waited for are lost with it, as the checks that excuse an interruption read.
    public internal(set) var lastAppQuit: SimInstant?
    /// Per phone, when its app last quit with a receipt on its way to the server, whose answer was lost with it;
    /// none once a quit lost none. The next launch must send that receipt again (`PayingCheck`).
    var receiptAnswerLost: [String: SimInstant] = [:]
    /// Per phone, when the server last accepted (200) a receipt its app sent, the answer lost or not.
    var receiptAccepted: [String: SimInstant] = [:]
    /// When the reader last acted on the phone on screen (a step may do nothing: `open profile` on the profile).
    var readerActed: SimInstant?
    /// Per phone, the last alerts telling a charge the reader dismissed, and when each had reached the screen, in any
    /// launch (invariant 11).
    var alertSeen: [String: ChargeAlertsTold] = [:]
    /// When the server last answered each phone's `GET /v1/me` with levels (`PhoneTransport`).
    var levelsAnswered: [String: SimInstant] = [:]
    /// Each phone's app's answers from the server to its check before paying (`PhoneTransport`): how many it took (not
    /// one landing after it gave up), when the last one came and when the server spoke it, and who the app said the
    /// reader was as it took it.
    var restoreInspected:
        [String: (count: Int, last: SimInstant, spoken: SimInstant, identity: AccessSnapshot.Identity)] = [:]

    /// Quits the app on screen, noting whether a receipt's answer was lost with it.
    func quitApp() {
        lastAppQuit = scheduler.now
        receiptAnswerLost[device.name] = device.terminate() ? scheduler.now : nil
    }

    /// How many times an app was started in this world (launch, restart, new phone).
    public private(set) var launches = 0

    /// What the phones' files and the controls could not read or write (`problems` adds the store's errors).
    var ownProblems: [String] = []

    /// A rule of the app's coordinator broken on purpose, on every launch from now on (the fuzzer's proof).
    public var defect: CoordinatorDefect? {
        didSet {
            device.defect = defect
            // Issue 12's first defect, planted whole: the backend's own guard against it is off too.
            backend.restoresAreIdempotentPerDevice = defect != .restoreTwice
            backend.restoresFollowWhoPaid = defect != .restoreIgnoresWhoPaid
            backend.restoresKeepThePolicy = defect != .restoreIgnoresPolicy
            backend.statusFollowsWhoPaid = defect != .statusIgnoresWhoPaid
            backend.transfersMoveOnlyActive = defect != .transferMovesEnded
            backend.retradesKeepWhatWasIssued = defect != .replacedRefreshTokenTradedAgain
            store.choosingAPlanEndsItsConsent = defect != .consentFollowsTheSubscription
            store.deliversRecoveries = defect != .recoveryKeptFromTheApp
            store.deliversRevocations = defect != .revocationKeptFromTheApp
        }
    }

    /// The phone on screen's name.
    public var deviceName: String { device.name }

    /// False once the app was killed, until it is started again.
    public var isAppRunning: Bool { device.isRunning }

    public init(config: DemoConfig, options: WorldOptions) throws(WorldSetupError) {
        self.config = config
        let (phone, phoneLine) = Self.openingPhone(options)
        var options = options
        options.deviceName = phone.name
        self.options = options
        if phone.appleId != options.appleId { phoneAppleIds[phone.name] = phone.appleId }
        let scheduler = Scheduler()
        let timeline = Timeline(clock: { scheduler.now })
        var random = SeededGenerator(seed: options.seed)
        let state = options.stateDirectory
        do {
            if let state {
                try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
                try StateCheck.check(folder: state, phone: options.deviceName)
                try StateCheck.checkApp(folder: state, config: config)
            }
            let keys = try Self.keys(state: state, seed: options.seed)
            store = try AppStore(
                store: config.store, bundleId: config.app.bundleId, scheduler: scheduler, timeline: timeline,
                random: random.split(), latency: options.latency, databasePath: state.map { $0 + "/appstore.sqlite" },
                keys: keys)
            backend = try Backend(
                config: config, store: store, clock: { scheduler.now }, timeline: timeline,
                databasePath: state.map { $0 + "/backend.sqlite" }, keys: keys)
            backend.passwordIterations =
                options.passwordIterations
                ?? (state == nil ? PasswordHash.minimalIterations : PasswordHash.defaultIterations)
            if let lifetime = options.refreshTokenLifetime { backend.refreshTokenLife = lifetime }
            if let state {
                try StateCheck.crossCheck(store: store, backend: backend, folder: state)
                try StateKinship.stamp(folder: state)
            }
            network = SimulatedNetwork(
                backend: backend, scheduler: scheduler, timeline: timeline, random: random.split(),
                latency: options.latency)
            var gateDraws = random.split()
            let files = try Self.storage(named: options.deviceName, state: state)
            storages[options.deviceName] = files
            device = Device(
                name: options.deviceName, app: config.app,
                queue: store.paymentQueue(
                    deviceId: Self.deviceId(phone.name, phone.appleId), appleId: phone.appleId, receipt: files),
                storage: files, network: network, scheduler: scheduler, timeline: timeline,
                gateDraws: gateDraws.split())
            self.gateDraws = gateDraws
            store.registerOfferKey(backend.offerKeyIdentifier) { [weak backend] in backend?.offerVerifyingKey }
            // App Store Connect points the app's server notifications at the backend.
            store.notificationEndpoint = { [network] signedPayload in
                network.postNotification(
                    HTTPRequest(
                        method: "POST", path: "/v1/notifications/apple", headers: ["Content-Type": "application/json"],
                        body: CanonicalJSONWriter.object(["signedPayload": signedPayload])))
            }
        } catch {
            // Refused once the store opened: the events it scheduled hold it, its records' file open, until they go.
            // `deinit` removes them for a world made, never for one refused: the folder kept the store's `-wal` and
            // `-shm`, which `StateLock.restore` removes only once no connection holds them (session 32).
            scheduler.removeAll()
            // A catalog the store cannot sell from is a mistake in the config: name the file; the store's records
            // that cannot be opened are the state folder's (a swapped or damaged database blamed the config).
            if let error = error as? StoreSetupError {
                throw WorldSetupError(
                    description: "\(error.file ?? config.sourcePath ?? "the demo config"): \(error)")
            }
            throw WorldSetupError(description: error.failureDescription)
        }
        self.scheduler = scheduler
        self.timeline = timeline
        recordPhoneOnScreen()
        storages.values.forEach(watch)
        attach(device)
        applyStoreKitSettings()
        let settingsLine = resumeSettings()
        try resumeClock()
        if let settingsLine { timeline.log(.control, settingsLine) }
        if let phoneLine { timeline.log(.control, phoneLine) }
        // After the clock: a payment confirmed before the last run stopped is charged at today's date.
        store.resumeHeldPayments()
        // Apple's news still on its way when the last run stopped reaches the server in this one.
        store.resumeNotifications()
    }

    deinit {
        // Break the cycles through scheduled closures and callbacks, or every world would stay in memory.
        device.terminate()
        store.notificationEndpoint = nil
        scheduler.removeAll()
    }

    /// A `.storekit` catalog brings its test switches, as Xcode's StoreKit testing applies them.
    private func applyStoreKitSettings() {
        if let settings = config.store.settings {
            store.askToBuyEnabled = settings.askToBuy ?? false
            store.billingGracePeriodEnabled = settings.billingGracePeriod ?? false
            store.billingRetryOnRenewal = settings.renewalBillingIssues ?? false
        }
        guard let settings = config.store.storekitSettings else { return }
        store.askToBuyEnabled = settings.askToBuyEnabled
        store.billingRetryOnRenewal = settings.renewalBillingIssuesEnabled
        store.billingGracePeriodEnabled = settings.billingGracePeriodEnabled
        if settings.failTransactionsEnabled { try? store.inject(FaultPlan.parse("payment error always")) }
        // Xcode's billing-issue switch: a purchase stops for the reader to fix their payment method.
        if settings.billingIssuesEnabled { try? store.inject(FaultPlan.parse("payment interrupted always")) }
    }

    /// Starts the app on the phone.
    public func launch() {
        device.launch()
    }

    /// The reader's input, delivered to the phone's app.
    public func send(_ input: ReaderInput) {
        device.dispatch(.reader(input))
    }

    /// What the phone shows now.
    public var screen: ScreenModel { device.screen }
    /// `screen.id` and `screen.visibleID`, read from the app's state without building the screen.
    public var screenID: ScreenID { device.state.screenID }
    public var visibleScreenID: ScreenID { device.state.visibleScreenID }

    /// The reader's age, nil for an adult; the same reader on every phone, from now on. Under age, a
    /// purchase asks the parental gate first, in any app.
    public var readerAge: Int? {
        didSet {
            device.readerAge = readerAge
            timeline.log(.control, "reader's age \(readerAge.map(String.init) ?? "adult") on \(device.name)")
        }
    }

    /// The app's state on the phone, for checks.
    public var appState: AppState { device.state }

    /// Listens to a phone: what the reader does, and what the backend tells it.
    func attach(_ device: Device) {
        let name = device.name
        launches += 1
        device.launchNumber = launches
        device.onOutcome = { [weak self] outcome in
            guard let self else { return }
            var outcome = outcome
            if outcome.told == .restore(.alreadySubscribed) {
                // The server's word when told, or when it last answered the phone's question since the act began.
                let answered = levelsAnswered[name].map { $0 >= outcome.began } ?? false
                outcome.serverGrantedWhenTold = answered ? true : serverGrants(outcome)
            }
            if outcome.told == .restore(.paymentRetrying) { outcome.appleRetriedWhenTold = appleRetries }
            if outcome.told == .restore(.confirmMoveFromAnotherAccount)
                || outcome.told == .purchase(.ownedByAnotherAccount(canMove: true))
            {
                outcome.appleEntitledWhenTold = appleEntitled
            }
            switch outcome.told {
            case .purchase, .restore: outcome.unheardPayersWhenTold = ToldCheck.unheardPayers(self)
            case .account: break
            }
            readerOutcomes.append(outcome)
        }
        device.onAction = { [weak self] in
            self?.readerActed = self?.scheduler.now
            self?.onReaderAction?($0)
        }
        // The device weakly: it holds this closure, and a phone never freed keeps its App Store open (no checkpoint).
        device.onAnswer = { [weak self, weak device, transport = device.transport] in
            guard let self, let device else { return }
            words.record($0, on: name)
            if transport.handingInspectAnswer {
                restoreInspected[name] = (
                    (restoreInspected[name]?.count ?? 0) + 1, scheduler.now,
                    transport.handingInspectSpokenAt ?? scheduler.now, device.state.access.identity
                )
            }
        }
        device.heardLevels = { [weak self] id in
            guard let self else { return [] }
            // Past the end the backend gave them, the levels are not its word now (`LevelsEndCheck`): a phone that
            // could not ask again shows none, and offers none to move (session 27).
            if let until = words.until(on: name, identityId: id), until <= scheduler.now.milliseconds { return [] }
            return words.levels(on: name, identityId: id)
        }
        // Nil where the ledger cannot be read: the checks that order by it fall back to the instant alone.
        device.ledgerMark = { [weak self] in
            guard let self else { return nil }
            do { return try backend.ledger.auditMark() } catch { return nil }
        }
        device.onGiveUp = { [weak self] path in
            guard let self else { return }
            lastGiveUp = scheduler.now
            if BackendFault.target(of: path) != "receipts" { lastGiveUpBesideReceipts = scheduler.now }
        }
        device.onAlertSeen = { [weak self] alert, at in
            guard alert.charge?.tellsTransaction == true else { return }
            self?.alertSeen[name, default: ChargeAlertsTold()].note([alert], launch: 0, at: at)
        }
        device.transport.onReceiptAccepted = { [weak self] in self?.receiptAccepted[name] = self?.scheduler.now }
        device.transport.onLevelsAnswered = { [weak self] in self?.levelsAnswered[name] = self?.scheduler.now }
    }

    /// The original transactions of the phone's Apple ID, its own or shared with it, that give access now by Apple's
    /// records (a grace period included).
    var appleEntitled: Set<String> {
        let own = store.subscriptions(appleId: appleId).filter(\.state.isEntitled).map(\.originalTransactionId)
        let shared = store.familySharedTransactions(appleId: appleId).map(\.originalTransactionIdentifier)
            .filter(store.shareGivesAccess)
        return Set(own + shared)
    }

    /// Whether Apple retries now a subscription of the phone's Apple ID, or of its family purchaser that it shares.
    var appleRetries: Bool {
        let purchasers = store.familySharedTransactions(appleId: appleId).compactMap {
            store.familyShare(originalTransactionId: $0.originalTransactionIdentifier)?.purchaserOriginalTransactionId
        }
        return
            (store.subscriptions(appleId: appleId)
            + purchasers.compactMap { store.subscription(originalTransactionId: $0) }).contains {
                $0.state == .billingRetry && $0.autoRenew
            }
    }

    /// Whether the server grants the reader told `outcome` a level now: the identity told, or the phone's own guest
    /// (signed in, its subscription not moved yet is the reader's too). Nil when the ledger cannot be read.
    private func serverGrants(_ outcome: ReaderOutcome) -> Bool? {
        do {
            var ids: [String] = []
            switch outcome.identityWhenTold {
            case .anonymous(let id): ids.append(id)
            case .account(let email): if let id = try backend.ledger.identityId(email: email) { ids.append(id) }
            case .none: break
            }
            if let guest = device.storage.anonymousIdentity?.id { ids.append(guest) }
            for id in ids where try !backend.levels(of: id).isEmpty { return true }
            return false
        } catch {
            return nil
        }
    }

    /// A state folder's own keys (made from the OS's randomness with the folder; a folder older than its
    /// keys keeps the ones it was signed with), or keys derived from the seed for an ephemeral world.
    private static func keys(state: String?, seed: UInt64) throws -> Keyring {
        guard let state else { return .derived(seed: seed) }
        let manager = FileManager.default
        let legacy = ["appstore.sqlite", "backend.sqlite"].contains { manager.fileExists(atPath: "\(state)/\($0)") }
        try manager.createDirectory(atPath: state, withIntermediateDirectories: true)
        return try Keyring.folder(state, legacy: legacy)
    }

    static func storage(named name: String, state: String?) throws -> PhoneStorage {
        try state.map { try DeviceFiles(directory: "\($0)/devices/\(name)") } ?? DeviceMemory()
    }

    /// The store's identifier of a phone: the same name and Apple ID are the same phone across runs.
    static func deviceId(_ name: String, _ appleId: String) -> String { "\(name)-\(appleId)" }
}
