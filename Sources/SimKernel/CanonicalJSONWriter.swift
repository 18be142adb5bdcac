/// Writes JSON byte for byte as `JSONEncoder` with `.sortedKeys` does (`ReceiptCodec.canonicalJSON`):
/// no spaces, keys in the order given (the caller lists them sorted), nil fields left out, `/` escaped.
/// Foundation's encoder was a tenth of a renewal's time for the three payloads a DID_RENEW signs. The
/// backend writes its access answer with it, and the app its requests' bodies: it sits beside
/// `QuickJSON`, the reader, for every module to share.
public struct CanonicalJSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// Whether the next member needs a comma before it.
    private var afterMember = false

    public init(capacity: Int = 512) { bytes.reserveCapacity(capacity) }

    /// An object; `members` writes its fields, keys in sorted order.
    public mutating func object(_ members: (inout CanonicalJSONWriter) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        afterMember = false
        members(&self)
        bytes.append(UInt8(ascii: "}"))
        afterMember = true
    }

    /// A member whose value is an object.
    public mutating func object(_ key: StaticString, _ members: (inout CanonicalJSONWriter) -> Void) {
        write(key)
        object(members)
    }

    public mutating func string(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        write(key)
        writeString(value)
        afterMember = true
    }

    public mutating func integer(_ key: StaticString, _ value: (some BinaryInteger)?) {
        guard let value else { return }
        write(key)
        bytes.append(contentsOf: String(value).utf8)
        afterMember = true
    }

    /// A member whose value is a list, each element written by `element` (a string, an object).
    public mutating func array<Element>(
        _ key: StaticString, _ elements: [Element], _ element: (inout CanonicalJSONWriter, Element) -> Void
    ) {
        write(key)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            element(&self, value)
        }
        bytes.append(UInt8(ascii: "]"))
        afterMember = true
    }

    /// A string as a list's element.
    public mutating func element(_ value: String) { writeString(value) }

    public mutating func bool(_ key: StaticString, _ value: Bool?) {
        guard let value else { return }
        write(key)
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
        afterMember = true
    }

    /// The key (plain ASCII, never escaped) and its colon.
    private mutating func write(_ key: StaticString) {
        if afterMember { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: "\":".utf8)
        afterMember = false
    }

    /// Runs that need no escape (all of a JWS) are copied whole; a string with none at all (a receipt of
    /// megabytes) is checked eight bytes at a time first.
    private mutating func writeString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { text in
            if PlainJSONText.isPlain(text, refusingSlash: true) { return bytes.append(contentsOf: text) }
            var run = 0
            for index in text.indices {
                let byte = text[index]
                guard
                    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/")
                else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[run..<index]))
                run = index + 1
                escape(byte)
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[run...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0..<0x20:
            let hex = "0123456789abcdef".utf8
            bytes.append(contentsOf: "u00".utf8)
            bytes.append(hex[hex.index(hex.startIndex, offsetBy: Int(byte >> 4))])
            bytes.append(hex[hex.index(hex.startIndex, offsetBy: Int(byte & 0xF))])
        default: bytes.append(byte)
        }
    }
}

extension CanonicalJSONWriter {
    /// An object of string members, `members` listed with their keys sorted: a request's body.
    public static func object(_ members: KeyValuePairs<StaticString, String>) -> [UInt8] {
        var writer = CanonicalJSONWriter(capacity: 64)
        writer.object { json in
            for (key, value) in members { json.string(key, value) }
        }
        return writer.bytes
    }
}
