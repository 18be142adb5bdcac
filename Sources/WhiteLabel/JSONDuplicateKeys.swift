import FoundationEssentials

/// The first key an object of a JSON text gives twice. The decoder keeps one of the values and drops the other in
/// silence: `"kids": false` then `"kids": true` ran without the parental gate (session 28), as a misspelt field
/// would drop what it says. The text is JSON already (the decoder took it), so this only walks it.
enum JSONDuplicateKeys {
    struct Duplicate: Equatable {
        /// Where the second key begins, and where the first did.
        var offset: Int
        var firstOffset: Int
        /// `app.kids`, as `JSONFileDecoder.fieldPath` writes a path.
        var path: String
    }

    static func first(in bytes: [UInt8]) -> Duplicate? {
        var walker = Walker(bytes: bytes)
        walker.index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        return walker.value(path: "")
    }

    /// A `ConfigError` at the second key's line, naming its path and the first one's line.
    static func error(in data: Data, file: String) -> ConfigError? {
        guard let duplicate = first(in: Array(data)) else { return nil }
        let firstLine = TextFile.location(of: duplicate.firstOffset, in: data).prefix { $0 != "," }
        return ConfigError(
            file: file, location: TextFile.location(of: duplicate.offset, in: data),
            message: "\(duplicate.path) is given twice (first on \(firstLine)); only one value would be read: keep one")
    }
}

private struct Walker {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func value(path: String) -> JSONDuplicateKeys.Duplicate? {
        skipSpace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object(path: path)
        case UInt8(ascii: "["): return array(path: path)
        case UInt8(ascii: "\""):
            _ = string()
            return nil
        default:
            // A number or a word: up to the next delimiter.
            while index < bytes.count, !",]} \n\r\t".utf8.contains(bytes[index]) { index += 1 }
            return nil
        }
    }

    private mutating func object(path: String) -> JSONDuplicateKeys.Duplicate? {
        index += 1
        var seen: [String: Int] = [:]
        while true {
            skipSpace()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return nil
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            let start = index
            let key = string()
            let keyPath = path.isEmpty ? key : "\(path).\(key)"
            if let first = seen.updateValue(start, forKey: key) {
                return JSONDuplicateKeys.Duplicate(offset: start, firstOffset: first, path: keyPath)
            }
            skipSpace()
            index += 1  // ":"
            if let found = value(path: keyPath) { return found }
        }
    }

    private mutating func array(path: String) -> JSONDuplicateKeys.Duplicate? {
        index += 1
        var count = 0
        while true {
            skipSpace()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return nil
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if let found = value(path: "\(path)[\(count)]") { return found }
            count += 1
        }
    }

    /// The string at `index`, its escapes read as the decoder reads them (`"a\u0062"` is the key `ab`).
    private mutating func string() -> String {
        let start = index
        index += 1
        var escaped = false
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            if bytes[index] == UInt8(ascii: "\\") {
                escaped = true
                index += 1
            }
            index += 1
        }
        index += 1
        let raw = bytes[start..<min(index, bytes.count)]
        guard escaped else { return String(decoding: raw.dropFirst().dropLast(), as: UTF8.self) }
        return (try? JSONDecoder().decode(String.self, from: Data(raw))) ?? String(decoding: raw, as: UTF8.self)
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }
}
