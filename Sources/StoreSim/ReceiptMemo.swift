/// What the store remembers so a receipt's cost hardly grows with the history it lists: each
/// transaction's in-app entry as canonical JSON (a receipt's payload is those bytes joined, so only a
/// new or changed transaction is encoded again), and the last receipts it issued with their payloads
/// (one presented byte for byte as issued is that payload: the store signed exactly those bytes).
final class ReceiptMemo {
    private var entries: [String: (purchase: ReceiptPayload.InAppPurchase, json: [UInt8])] = [:]
    private var issued: [(receipt: String, payload: ReceiptPayload, originals: [String])] = []
    /// Receipts kept: a receipt is checked soon after it is issued, and each may hold a long history.
    static let issuedKept = 4

    /// The payload's canonical JSON, byte for byte what `ReceiptCodec.canonicalJSON` makes of it.
    func json(of payload: ReceiptPayload) throws -> [UInt8] {
        let shell = ReceiptPayload(
            bundleId: payload.bundleId, environment: payload.environment,
            deviceVerification: payload.deviceVerification, deviceVerificationNonce: payload.deviceVerificationNonce,
            creationDate: payload.creationDate, inApp: [])
        try join(payload.inApp)
        // Keys are sorted and `inApp` sorts last, so the shell ends with its empty list: `[]}`.
        var bytes = try ReceiptCodec.canonicalBytes(shell)
        guard bytes.suffix(3).elementsEqual("[]}".utf8) else {
            return try ReceiptCodec.canonicalBytes(payload)
        }
        bytes.removeLast(2)
        bytes.reserveCapacity(bytes.count + listedJSON.count + 2)
        bytes += listedJSON
        bytes += "]}".utf8
        return bytes
    }

    /// The entries of the last list asked for, their JSON joined by commas, and where each one's ends: the
    /// next receipt of an Apple ID lists the same but for its newest transactions (or one refunded), so
    /// the list is compared and only what follows the first difference is joined again.
    private var listed: [ReceiptPayload.InAppPurchase] = []
    private var listedJSON: [UInt8] = []
    private var listedEnds: [Int] = []
    /// The listed entries' original transaction ids, each once in the order they first appear, and where.
    private var listedOriginals: [String] = []
    private var originalStarts: [String: Int] = [:]

    private func join(_ inApp: [ReceiptPayload.InAppPurchase]) throws {
        var same = 0
        while same < min(listed.count, inApp.count), listed[same] == inApp[same] { same += 1 }
        listed.removeSubrange(same...)
        listedEnds.removeSubrange(same...)
        listedJSON.removeSubrange((listedEnds.last ?? 0)...)
        while let last = listedOriginals.last, originalStarts[last, default: 0] >= same {
            originalStarts[last] = nil
            listedOriginals.removeLast()
        }
        for purchase in inApp[same...] {
            if originalStarts[purchase.originalTransactionId] == nil {
                originalStarts[purchase.originalTransactionId] = listed.count
                listedOriginals.append(purchase.originalTransactionId)
            }
            if !listed.isEmpty { listedJSON.append(UInt8(ascii: ",")) }
            listedJSON += try entry(purchase)
            listed.append(purchase)
            listedEnds.append(listedJSON.count)
        }
    }

    private func entry(_ purchase: ReceiptPayload.InAppPurchase) throws -> [UInt8] {
        if let kept = entries[purchase.transactionId], kept.purchase == purchase { return kept.json }
        let json = try ReceiptCodec.canonicalBytes(purchase)
        entries[purchase.transactionId] = (purchase, json)
        return json
    }

    /// A receipt of `payload`: `seal` signs its canonical JSON; the receipt is remembered with its payload.
    func issue(_ payload: ReceiptPayload, sealing seal: ([UInt8]) -> String) throws -> String {
        let receipt = seal(try json(of: payload))
        // `json(of:)` listed this payload's entries: their originals are known without reading them again.
        if issued.count == Self.issuedKept { issued.removeFirst() }
        issued.append((receipt, payload, listedOriginals))
        return receipt
    }

    /// The payload of a receipt this store issued, and its subscriptions (`originals(of:)`), when
    /// `receipt` is one of the last it issued, unchanged.
    func opened(_ receipt: String) -> (payload: ReceiptPayload, originals: [String])? {
        issued.last { $0.receipt == receipt }.map { ($0.payload, $0.originals) }
    }

    /// The original transaction ids of a payload's purchases, each once, in the order they first appear.
    static func originals(of payload: ReceiptPayload) -> [String] {
        var seen: Set<String> = []
        return payload.inApp.map(\.originalTransactionId).filter { seen.insert($0).inserted }
    }
}
