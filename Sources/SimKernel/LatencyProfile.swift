/// The operations whose latency the simulator shapes.
public enum Operation: String, CaseIterable, Codable, Sendable {
    case productsRequest = "products-request"
    case paymentSheet = "payment-sheet"
    case payment
    case receiptRefresh = "receipt-refresh"
    case backendRequest = "backend-request"
    case notification
}

/// How long operations take on the virtual clock: a range per operation, drawn from the seeded RNG.
public struct LatencyProfile: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    private let ranges: [Operation: ClosedRange<Int64>]
    /// Chance (0...1) that a call is slow: it then takes `stallMillis` more.
    private let stallChance: Double
    private let stallMillis: ClosedRange<Int64>

    public static let none = LatencyProfile(name: "none", uniform: 0...0)
    public static let fast = LatencyProfile(
        name: "fast",
        ranges: [
            .productsRequest: 40...120, .paymentSheet: 20...60, .payment: 150...400, .receiptRefresh: 60...200,
            .backendRequest: 40...150, .notification: 200...800,
        ])
    public static let typical = LatencyProfile(
        name: "typical",
        ranges: [
            .productsRequest: 250...900, .paymentSheet: 150...400, .payment: 900...2_400, .receiptRefresh: 400...1_500,
            .backendRequest: 250...900, .notification: 2_000...15_000,
        ])
    public static let slow = LatencyProfile(
        name: "slow",
        ranges: [
            .productsRequest: 1_500...4_000, .paymentSheet: 600...1_500, .payment: 3_000...8_000,
            .receiptRefresh: 2_000...6_000, .backendRequest: 1_500...5_000, .notification: 30_000...120_000,
        ])
    public static let flaky = LatencyProfile(
        name: "flaky",
        ranges: [
            .productsRequest: 250...900, .paymentSheet: 150...400, .payment: 900...2_400, .receiptRefresh: 400...1_500,
            .backendRequest: 250...900, .notification: 2_000...15_000,
        ], stallChance: 0.2, stallMillis: 4_000...12_000)

    public var description: String { name }

    public static let all: [LatencyProfile] = [.none, .fast, .typical, .slow, .flaky]

    public static func named(_ name: String) -> LatencyProfile? {
        all.first { $0.name == name }
    }

    init(
        name: String, ranges: [Operation: ClosedRange<Int64>], stallChance: Double = 0,
        stallMillis: ClosedRange<Int64> = 0...0
    ) {
        self.name = name
        self.ranges = ranges
        self.stallChance = stallChance
        self.stallMillis = stallMillis
    }

    init(name: String, uniform: ClosedRange<Int64>) {
        self.init(name: name, ranges: Dictionary(uniqueKeysWithValues: Operation.allCases.map { ($0, uniform) }))
    }

    /// A delay for one call of `operation`.
    public func delay(for operation: Operation, using generator: inout SeededGenerator) -> SimDuration {
        let range = ranges[operation] ?? 0...0
        var millis =
            range.lowerBound == range.upperBound ? range.lowerBound : Int64.random(in: range, using: &generator)
        if stallChance > 0 && Double.random(in: 0..<1, using: &generator) < stallChance {
            millis += Int64.random(in: stallMillis, using: &generator)
        }
        return .millis(millis)
    }
}
