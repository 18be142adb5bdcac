import FoundationEssentials

/// A demo config's `store` part that names an Xcode `.storekit` file instead of listing products:
/// `{"storekitFile": "podcast.storekit", "storefronts": ["USA", "FRA"], "unavailable": {"FRA": ["id"]}}`.
struct StoreKitReference: Decodable {
    /// Relative to the config file's folder, or absolute.
    var storekitFile: String
    /// Overrides the file's `_storefront` as the device's storefront.
    var storefront: String?
    /// Overrides the file's `_locale`.
    var locale: String?
    /// Storefronts that also sell the file's products, at the same price number; every storefront when absent.
    var storefronts: [String]?
    /// Storefront → product identifiers not sold there.
    var unavailable: [String: [String]]?

    /// Reads the referenced file and builds the catalog; `configFile` is the config's path, for relative
    /// paths and for messages about this part.
    func storePart(configFile: String) throws(ConfigError) -> (StorePart, warnings: [ConfigError]) {
        func fail(_ location: String, _ message: String) -> ConfigError {
            ConfigError(file: configFile, location: "store.\(location)", message: message)
        }
        let path = Self.resolve(storekitFile, relativeTo: configFile)
        // A missing file is the config's mistake (a typo, a wrong folder): say where the config names it.
        if !FileManager.default.fileExists(atPath: path) {
            throw fail("storekitFile", "no such file: \(path)")
        }
        // As `--storekit FILE` imports it: a file selling nothing is refused, a storefront the simulator does not know
        // is a warning and USA (session 28: the two routes disagreed on both).
        let known = Set(StorefrontCodes.known)
        let configuration = try StoreKitApp.importFile(path, knownStorefronts: known)
        func check(_ code: String, at location: String) throws(ConfigError) {
            if !Self.isStorefrontCode(code) { throw fail(location, "\"\(code)\" is not a storefront code such as USA") }
            if !known.contains(code) {
                throw fail(
                    location,
                    "\"\(code)\" is not a storefront the simulator knows (storefronts: \(StorefrontCodes.list))")
            }
        }
        if let storefront { try check(storefront, at: "storefront") }
        for (index, code) in (storefronts ?? []).enumerated() { try check(code, at: "storefronts[\(index)]") }
        // Without a list, every storefront sells the file's products, as with `--storekit FILE` (session 23's fix
        // of that route left this one selling in the file's storefront alone: nothing in FRA, session 28).
        let listed = storefronts ?? StorefrontCodes.known
        let selling = Set([configuration.settings.storefront, storefront].compactMap { $0 } + listed)
        let products = Set(configuration.products.map(\.productId))
        for (code, identifiers) in (unavailable ?? [:]).sorted(by: { $0.key < $1.key }) {
            if !selling.contains(code) {
                throw fail(
                    "unavailable.\(code)",
                    "\(code) is not a storefront this catalog sells in (\(selling.sorted().joined(separator: ", ")))")
            }
            for (index, identifier) in identifiers.enumerated() where !products.contains(identifier) {
                throw fail("unavailable.\(code)[\(index)]", "\"\(identifier)\" is not a product of \(storekitFile)")
            }
        }
        let part = configuration.storePart(
            storefront: storefront, locale: locale, storefronts: listed, unavailable: unavailable ?? [:],
            sourceFile: path)
        return (part, configuration.warnings)
    }

    /// `podcast.storekit` next to `demo-configs/podcast.json` is `demo-configs/podcast.storekit`.
    static func resolve(_ path: String, relativeTo configFile: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let slash = configFile.lastIndex(of: "/") else { return path }
        return configFile[...slash] + path
    }

    /// ISO 3166-1 alpha-3, as StoreKit and `.storekit` files write storefronts.
    static func isStorefrontCode(_ code: String) -> Bool {
        code.count == 3 && code.allSatisfy { $0.isASCII && $0.isUppercase }
    }
}
