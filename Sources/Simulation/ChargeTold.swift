import AppFlow
import SimKernel
import StoreSim

/// An alert telling a charge (`Alert.charge == .made`: "Purchase complete", a charge that gave no access, the same
/// told again at a launch) and when it reached the reader. Invariant 11 takes a charge as heard only from words telling
/// that charge: any alert dismissed after it counted before session 43, so found-by-hand/528's charge, lost on a kill,
/// passed behind the "Logged out" the reader then dismissed.
struct ChargeTold: Equatable {
    let productId: String?
    let transactionId: String?
    let at: SimInstant

    init?(_ alert: Alert, at: SimInstant) {
        guard alert.charge?.tellsTransaction == true else { return nil }
        productId = alert.productId
        transactionId = alert.transactionId
        self.at = at
    }

    /// Told at or after `record` was charged, of it.
    func tells(_ record: TransactionRecord) -> Bool {
        at >= record.purchaseDate && Self.speaks(productId: productId, transactionId: transactionId, of: record)
    }

    /// Words of a charge speak of `record` when they name its transaction or its product; ones naming neither (the app
    /// knew no title or number for it) speak of whichever charge they follow.
    static func speaks(productId: String?, transactionId: String?, of record: TransactionRecord) -> Bool {
        if productId == nil && transactionId == nil { return true }
        return transactionId == record.transactionIdentifier || productId == record.productIdentifier
    }
}

extension Alert {
    /// It tells `record` (shown or waiting its turn: kept on the phone until the reader dismisses it).
    func tells(_ record: TransactionRecord) -> Bool {
        charge?.tellsTransaction == true
            && ChargeTold.speaks(productId: productId, transactionId: transactionId, of: record)
    }
}

/// The last charge alerts one phone's app told, with the launch that told them, or the reader dismissed: a few are
/// kept, as a step tells one or two.
struct ChargeAlertsTold {
    private(set) var told: [(launch: Int, charge: ChargeTold)] = []
    private static let kept = 8

    mutating func note(_ alerts: [Alert], launch: Int, at instant: SimInstant) {
        for alert in alerts {
            guard let charge = ChargeTold(alert, at: instant) else { continue }
            told.append((launch, charge))
        }
        if told.count > Self.kept { told.removeFirst(told.count - Self.kept) }
    }

    /// One of them, told in `launch` (any launch when nil), tells `record`.
    func tell(_ record: TransactionRecord, launch: Int? = nil) -> Bool {
        told.contains { ($0.launch == launch || launch == nil) && $0.charge.tells(record) }
    }
}
