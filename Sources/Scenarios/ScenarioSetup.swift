import FoundationEssentials
import SimKernel
import Simulation
import StoreSim
import Subscriptions
import WhiteLabel

extension Scenario {
    /// The `.storekit` files its setup builds from (`storekit FILE`, `app FILE.storekit`), resolved as the run resolves them.
    public var storekitFiles: [String] {
        steps.compactMap { step in
            switch step.kind {
            case .setup(.storekit(let path)): ScenarioSetup.resolvedOrBeside(path, scenarioFile: file)
            case .setup(.app(let name)) where name.hasSuffix(".storekit"):
                ScenarioSetup.resolvedOrBeside(name, scenarioFile: file)
            default: nil
            }
        }
    }
}

extension Scenario {
    /// Loads the app its setup names (`app`, `storekit`) as the run will: a name or file that cannot be loaded
    /// is a mistake in the scenario, named at its line as a parse error is, not a test that failed at launch.
    public func checkApp(resources: ResourceLocator?) throws(ConfigError) {
        var setup = ScenarioSetup()
        var appStep: ScenarioStep?
        var storekitStep: ScenarioStep?
        // Setup comes before launch; a `when` line belongs to one compared world, which `compare` checks.
        for step in steps where step.condition == nil {
            guard case .setup(let setupStep) = step.kind else { continue }
            setup.add(setupStep)
            if case .app = setupStep { appStep = step }
            if case .storekit = setupStep { storekitStep = step }
        }
        do {
            // An owner's config selling from a `.storekit` file: its own mistake is named at its `app` line.
            if setup.storekit != nil && setup.appNamed {
                _ = try setup.ownerConfig(scenarioFile: file, resources: resources)
            }
        } catch {
            throw problem(error, at: appStep)
        }
        let config: DemoConfig
        do {
            config = try setup.loadConfig(scenarioFile: file, resources: resources)
        } catch {
            throw problem(error, at: setup.storekit != nil ? storekitStep : appStep)
        }
        // Its theme, as every command that loads a config checks it.
        do {
            _ = try ThemeLoader.load(for: config, resources: resources)
        } catch {
            throw problem(StepError(error.description), at: setup.storekit != nil ? storekitStep : appStep)
        }
        // Worlds of other apps sell other products: the run refuses a step naming one their app does not sell.
        if variation?.key != "app" {
            try checkProducts(soldBy: config)
            try checkIds(of: config)
        }
        try checkLocales(servedBy: config)
        try checkRaisedPrices(from: config.store.storefront)
    }

    /// A raised price with more decimals than the storefront's currency has is a mistake in the file: 1200.5 in the yen
    /// was sold as ¥1,200 and charged 1200.5 (session 34's note). The storefront is the one in force at that step.
    private func checkRaisedPrices(from initial: String) throws(ConfigError) {
        var storefront = Storefront.named(initial)
        for step in steps where step.condition == nil {
            switch step.kind {
            case .world(.storefront(let code)): storefront = Storefront.named(code)
            case .world(.raisePrice(_, let price)):
                guard let storefront, let why = AppStore.minorUnitsRefusal(price, in: storefront) else { continue }
                throw problem(StepError("\(price) is no price here: \(why)"), at: step)
            default: continue
            }
        }
    }

    /// A locale the store cannot serve is a mistake in the file, as `check --locale` says it: `locale zz_ZZ` played
    /// without a word, in English (session 28).
    private func checkLocales(servedBy config: DemoConfig) throws(ConfigError) {
        let translated = Set(config.store.products.flatMap(\.localizations.keys))
        for step in steps {
            guard case .world(.locale(let id)) = step.kind, let why = PriceLocales.problem(id, translated: translated)
            else { continue }
            throw problem(StepError(why), at: step)
        }
        guard let variation, variation.key == "locale" else { return }
        for case .world(.locale(let id))? in variation.steps {
            if let why = PriceLocales.problem(id, translated: translated) {
                throw ConfigError(file: variation.source, message: "locale=\(id): \(why)")
            }
        }
    }

    /// A product a step names that the app does not sell is a mistake in the file, as an unknown word is:
    /// `store price-increase com.nope 5.99` was a failed test, "the store refused it" (session 26).
    private func checkProducts(soldBy config: DemoConfig) throws(ConfigError) {
        let sold = config.store.products.map(\.productId)
        for step in steps {
            let product: String
            switch step.kind {
            case .world(.raisePrice(let named, _)), .world(.changePlan(_, let named)): product = named
            default: continue
            }
            guard !sold.contains(product) else { continue }
            throw problem(
                StepError("unknown product \"\(product)\" (products: \(sold.joined(separator: ", ")))"), at: step)
        }
    }

    func problem(_ error: StepError, at step: ScenarioStep?) -> ConfigError {
        guard let step else { return ConfigError(file: file, message: error.description) }
        return ConfigError(file: "\(file):\(step.line)", message: "\(error.description) (in \"\(step.text)\")")
    }
}

/// The setup steps gathered before launch, and how they become a world.
struct ScenarioSetup {
    var app = "daily-news"
    /// Whether a step named the app; with `storekit FILE` it is then the owner's app, else the file's own.
    var appNamed = false
    var storekit: String?
    var options = WorldOptions(latency: .fast)
    var storefront: String?
    var locale: String?
    var accounts: [(email: String, password: String)] = []
    var faults = FaultPlan()
    var defect: CoordinatorDefect?
    var finishPolicy: SubscriptionCoordinator.FinishPolicy?
    var restorePolicy: RestorePolicy?
    var adsForSubscribers: Bool?

    mutating func add(_ step: SetupStep) {
        switch step {
        case .app(let name): (app, appNamed) = (name, true)
        case .storekit(let path): storekit = path
        case .seed(let seed): options.seed = seed
        case .device(let name): options.deviceName = name
        case .appleId(let email): options.appleId = email
        case .account(let email, let password): accounts.append((email, password))
        case .defect(let broken): defect = broken
        case .restorePolicy(let policy): restorePolicy = policy
        case .adsForSubscribers(let shown): adsForSubscribers = shown
        case .refreshTokenLifetime(let lifetime): options.refreshTokenLifetime = lifetime
        }
    }

    /// A setting written before launch: the world is built with it rather than told of it.
    mutating func add(_ setting: WorldAction) {
        switch setting {
        case .storefront(let code): storefront = code
        case .locale(let id): locale = id
        case .latency(let profile): options.latency = profile
        case .inject(let plan): for rule in plan.rules { faults.add(rule) }
        case .finish(let policy): finishPolicy = policy
        default: break
        }
    }

    /// The world, not launched: accounts exist on the backend, the store sells in the storefront and locale.
    /// `configs`: the run's configs already read, if it keeps them.
    func build(scenarioFile: String, resources: ResourceLocator?, configs: LoadedConfigs? = nil) throws(StepError)
        -> World
    {
        let load = { () throws(StepError) in try loadConfig(scenarioFile: scenarioFile, resources: resources) }
        var config: DemoConfig
        if let configs {
            config = try configs.config("\(app)\n\(storekit ?? "")\n\(appNamed)\n\(scenarioFile)", load: load)
        } else {
            config = try load()
        }
        if let restorePolicy { config.backend.restorePolicy = restorePolicy }
        if let adsForSubscribers { config.app.ads.hideForSubscribers = !adsForSubscribers }
        let world: World
        do {
            world = try World(config: config, options: options)
        } catch {
            throw StepError(error.description)
        }
        do throws(WorldSetupError) {
            try world.preset(storefront: storefront, locale: locale)
            world.defect = defect
            if let finishPolicy { world.finishPolicy = finishPolicy }
            for account in accounts { try world.createAccount(email: account.email, password: account.password) }
        } catch {
            throw StepError(error.description)
        }
        do {
            if !faults.isEmpty { try world.inject(faults) }
        } catch {
            throw StepError(error.description)
        }
        return world
    }

    /// `app NAME|PATH` as `--app` reads it; a relative path as `resolve` finds it.
    func loadConfig(scenarioFile: String, resources: ResourceLocator?) throws(StepError) -> DemoConfig {
        let known = Set(Storefront.known.map(\.countryCode))
        do {
            if let storekit {
                let file = try Self.resolve(storekit, scenarioFile: scenarioFile)
                guard FileManager.default.fileExists(atPath: file) else { throw StepError("no such file: \(file)") }
                guard appNamed else { return try StoreKitApp.load(path: file, knownStorefronts: known) }
                let owner = try ownerConfig(scenarioFile: scenarioFile, resources: resources)
                return try StoreKitApp.load(path: file, owner: owner, knownStorefronts: known)
            }
            if app.hasSuffix(".storekit") {
                let file = try Self.resolve(app, scenarioFile: scenarioFile)
                guard FileManager.default.fileExists(atPath: file) else { throw StepError("no such file: \(file)") }
                return try StoreKitApp.load(path: file, knownStorefronts: known)
            }
        } catch let error as ConfigError {
            throw StepError(error.description)
        } catch let error as StepError {
            throw error
        } catch {
            throw StepError("\(error)")
        }
        return try ownerConfig(scenarioFile: scenarioFile, resources: resources)
    }

    /// A relative path from the scenario's folder, so a scenario runs from anywhere; from the working directory only
    /// when the scenario's folder has no such file. Both there and different is refused, naming both: the working
    /// directory's was taken without a word, and the scenario ran another catalog than the one beside it (session 27).
    static func resolve(_ path: String, scenarioFile: String) throws(StepError) -> String {
        let beside = resolvedOrBeside(path, scenarioFile: scenarioFile)
        let files = FileManager.default
        guard beside != path, files.fileExists(atPath: path) else { return beside }
        guard files.contents(atPath: beside) != files.contents(atPath: path) else { return beside }
        let here = URL(fileURLWithPath: path).standardizedFileURL.path
        throw StepError(
            "\(path) names two different files, \(beside) beside the scenario and \(here) in the working directory; "
                + "a relative path is read from the scenario's folder: write an absolute path, or rename one")
    }

    /// `path` beside the scenario when it is relative and there is such a file there, else `path` as it is.
    static func resolvedOrBeside(_ path: String, scenarioFile: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        let beside = URL(fileURLWithPath: scenarioFile).deletingLastPathComponent().appendingPathComponent(path).path
        return FileManager.default.fileExists(atPath: beside) ? beside : path
    }

    func ownerConfig(scenarioFile: String, resources: ResourceLocator?) throws(StepError) -> DemoConfig {
        let isPath = app.contains("/") || app.hasSuffix(".json")
        var path: String
        if isPath {
            path = try Self.resolve(app, scenarioFile: scenarioFile)
        } else {
            guard let resources else {
                throw StepError("cannot find the bundled demo apps (demo-configs/); set PAYWALL_SIM_HOME")
            }
            path = resources.configPath(forApp: app)
            guard FileManager.default.fileExists(atPath: path) else {
                if let reason = resources.noAppsReason { throw StepError("app \(app): \(reason)") }
                throw StepError(
                    "no demo app named \"\(app)\" (bundled: \(resources.appNames().joined(separator: ", ")))")
            }
        }
        do {
            return try DemoConfigLoader.load(path: path)
        } catch {
            throw StepError(error.description)
        }
    }
}
