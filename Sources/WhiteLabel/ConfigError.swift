/// A problem a person can cause in an input file, named precisely enough to fix it:
/// the file, then the field path or line, then what is wrong.
public struct ConfigError: Error, Equatable, CustomStringConvertible, Sendable {
    public let file: String
    /// A field path such as `app.subscriptions[2].productId`, or `line 3, column 5`.
    public let location: String?
    public let message: String
    /// A warning that a product is not on the paywall: `check --paywall` says it in its report ("Not on the paywall"),
    /// so there it is not said again on stderr (it was both, session 28).
    public var isUnsoldProduct = false

    public init(file: String, location: String? = nil, message: String, isUnsoldProduct: Bool = false) {
        self.file = file
        self.location = location
        self.message = message
        self.isUnsoldProduct = isUnsoldProduct
    }

    public var description: String {
        if let location { return "\(file): \(location): \(message)" }
        return "\(file): \(message)"
    }
}
