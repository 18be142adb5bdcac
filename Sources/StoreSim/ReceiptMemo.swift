/// What the store remembers so a receipt's cost hardly grows with the history it lists: each
/// transaction's in-app entry as canonical JSON (a receipt's payload is those bytes joined, so only a
/// new or changed transaction is encoded again), and the last receipts it issued with their payloads
/// (one presented byte for byte as issued is that payload: the store signed exactly those bytes).
final class ReceiptMemo {
    private var entries: [String: (purchase: ReceiptPayload.InAppPurchase, json: [UInt8])] = [:]
    private var issued: [(receipt: String, payload: ReceiptPayload)] = []
    /// Receipts kept: a receipt is checked soon after it is issued, and each may hold a long history.
    static let issuedKept = 4

    /// The payload's canonical JSON, byte for byte what `ReceiptCodec.canonicalJSON` makes of it.
    func json(of payload: ReceiptPayload) throws -> [UInt8] {
        let shell = ReceiptPayload(
            bundleId: payload.bundleId, environment: payload.environment,
            deviceVerification: payload.deviceVerification, deviceVerificationNonce: payload.deviceVerificationNonce,
            creationDate: payload.creationDate, inApp: [])
        // Keys are sorted and `inApp` sorts last, so the shell ends with its empty list: `[]}`.
        var bytes = try ReceiptCodec.canonicalBytes(shell)
        guard bytes.suffix(3).elementsEqual("[]}".utf8) else {
            return try ReceiptCodec.canonicalBytes(payload)
        }
        bytes.removeLast(2)
        bytes.reserveCapacity(bytes.count + payload.inApp.count * 260)
        for (index, purchase) in payload.inApp.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += try entry(purchase)
        }
        bytes += "]}".utf8
        return bytes
    }

    private func entry(_ purchase: ReceiptPayload.InAppPurchase) throws -> [UInt8] {
        if let kept = entries[purchase.transactionId], kept.purchase == purchase { return kept.json }
        let json = try ReceiptCodec.canonicalBytes(purchase)
        entries[purchase.transactionId] = (purchase, json)
        return json
    }

    func remember(_ receipt: String, _ payload: ReceiptPayload) {
        if issued.count == Self.issuedKept { issued.removeFirst() }
        issued.append((receipt, payload))
    }

    /// The payload of a receipt this store issued, when `receipt` is one of the last it issued unchanged.
    func payload(of receipt: String) -> ReceiptPayload? {
        issued.last { $0.receipt == receipt }?.payload
    }
}
