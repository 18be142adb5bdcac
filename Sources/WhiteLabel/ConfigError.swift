/// A problem a person can cause in an input file, named precisely enough to fix it:
/// the file, then the field path or line, then what is wrong.
public struct ConfigError: Error, Equatable, CustomStringConvertible, Sendable {
    public let file: String
    /// A field path such as `app.subscriptions[2].productId`, or `line 3, column 5`.
    public let location: String?
    public let message: String

    public init(file: String, location: String? = nil, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    public var description: String {
        if let location { return "\(file): \(location): \(message)" }
        return "\(file): \(message)"
    }
}
