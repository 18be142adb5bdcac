import FoundationEssentials
import SimKernel

extension ReceiptBody {
    /// The body byte for byte as `JSONEncoder` writes it with sorted keys, written around the receipt's
    /// bytes: the receipt is megabytes once its history is long, and the encoder walked it character by
    /// character (a fifth of a step). A receipt with anything the encoder escapes goes to the encoder. Sorted, for the encoder's own order of two keys changed from run to run.
    func json() throws -> [UInt8] {
        var receipt = receipt
        return try receipt.withUTF8 { text in
            guard PlainJSONText.isPlain(text, refusingSlash: true) else { return Array(try Self.encoder.encode(self)) }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.count + 48)
            bytes.append(UInt8(ascii: "{"))
            if let confirmMoveFromAccount {
                bytes += #""confirmMoveFromAccount":"#.utf8
                bytes += (confirmMoveFromAccount ? "true," : "false,").utf8
            }
            bytes += #""receipt":""#.utf8
            bytes += text
            bytes += #""}"#.utf8
            return bytes
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()
}
