import SimKernel

/// When the server gave an answer: its clock in milliseconds, then the answer's place among all it gave, so two
/// answers of one millisecond are still ordered (seed 2567: a `me` answered just before a receipt's check, landing
/// after it, took the levels the receipt had just given).
public struct ServerStamp: Comparable, Sendable {
    public let time: Int64
    public let order: Int64

    public init(time: Int64, order: Int64) {
        self.time = time
        self.order = order
    }

    /// The answer's stamp, from its `X-Server-Time` and `X-Server-Order`; nil without a time.
    public init?(_ response: HTTPResponse) {
        guard let time = response.headers[BackendClient.serverTimeHeader].flatMap({ Int64($0) }) else { return nil }
        self.init(time: time, order: response.headers[BackendClient.serverOrderHeader].flatMap { Int64($0) } ?? 0)
    }

    public static func < (lhs: ServerStamp, rhs: ServerStamp) -> Bool {
        (lhs.time, lhs.order) < (rhs.time, rhs.order)
    }
}
