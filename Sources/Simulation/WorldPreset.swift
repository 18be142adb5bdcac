import BackendSim
import FoundationEssentials
import SimKernel
import StoreSim

/// A scenario's setup on a world not yet launched: the app has asked nothing yet, so nothing is told.
extension World {
    /// The store sells in `storefront` and `locale` from the first request; nil keeps the config's.
    public func preset(storefront: String?, locale: String?) throws(WorldSetupError) {
        if let storefront {
            guard let named = Storefront.named(storefront) else {
                throw WorldSetupError(
                    description:
                        "unknown storefront \"\(storefront)\" (the catalog sells in \(storefronts.joined(separator: ", ")))"
                )
            }
            store.storefront = named
        }
        if let locale {
            if let problem = PriceLocales.problem(locale, products: config.store.products) {
                throw WorldSetupError(description: "locale: \(problem)")
            }
            store.locale = locale
        }
    }

    /// Why `account EMAIL PASSWORD` could not be made: the backend's rules, said when a scenario is read.
    public static func accountProblem(email: String, password: String) -> String? {
        Backend.credentialsProblem(email: email, password: password)
    }

    /// Signs an account up on the backend, as if the reader had made it on another phone earlier.
    public func createAccount(email: String, password: String) throws(WorldSetupError) {
        let response = backend.handle(
            HTTPRequest(
                method: "POST", path: "/v1/accounts", headers: ["Content-Type": "application/json"],
                body: CanonicalJSONWriter.object(["email": email, "password": password])))
        guard response.status == 201 else {
            throw WorldSetupError(
                description:
                    "the backend refused account \(email): \(response.status) \(String(decoding: response.body, as: UTF8.self))"
            )
        }
    }
}
