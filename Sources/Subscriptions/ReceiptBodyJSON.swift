import SimKernel

extension ReceiptBody {
    /// The body as `JSONEncoder` writes it with sorted keys, by `CanonicalJSONWriter`: the receipt is
    /// megabytes once its history is long, and the encoder walked it character by character (a fifth of a
    /// step); the writer copies a plain receipt whole. Sorted, for the encoder's own order of two keys
    /// changed from run to run.
    func json() -> [UInt8] {
        var writer = CanonicalJSONWriter(capacity: receipt.utf8.count + 48)
        writer.object { json in
            json.bool("confirmMoveFromAccount", confirmMoveFromAccount)
            json.string("receipt", receipt)
        }
        return writer.bytes
    }
}
