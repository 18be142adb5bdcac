/// Reads plain JSON objects (ASCII strings without escapes, integers, booleans, null, nested objects and
/// arrays) without Foundation's decoder: the payloads the store signs (it was a tenth of a renewal) and the
/// backend's answers the simulation reads. Anything else (an escape, a fraction, a duplicate key, text
/// beyond ASCII) answers nil, and the caller decodes with `JSONDecoder`, so what is accepted and refused is
/// `JSONDecoder`'s (`QuickJSONTests` compares the two).
public enum QuickJSON: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case null
    case object([String: QuickJSON])
    case array([QuickJSON])

    /// The object `bytes` holds, or nil when it is not in the plain form above.
    public static func object(_ bytes: [UInt8]) -> [String: QuickJSON]? {
        var reader = Reader(bytes: bytes)
        guard case .object(let members)? = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.index == bytes.count ? members : nil
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) -> QuickJSON? {
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return depth < 4 ? object(depth: depth) : nil
            case UInt8(ascii: "["): return depth < 4 ? array(depth: depth) : nil
            case UInt8(ascii: "\""): return string().map(QuickJSON.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return integer()
            }
        }

        private mutating func object(depth: Int) -> QuickJSON? {
            index += 1
            // Room for a transaction info's members at once: growing from empty rehashed them four times.
            var members: [String: QuickJSON] = Dictionary(minimumCapacity: 24)
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard let key = string() else { return nil }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let member = value(depth: depth + 1), members.updateValue(member, forKey: key) == nil else {
                    return nil
                }
                guard let more = next(closing: UInt8(ascii: "}")) else { return nil }
                if !more { return .object(members) }
            }
        }

        private mutating func array(depth: Int) -> QuickJSON? {
            index += 1
            var elements: [QuickJSON] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                guard let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
                guard let more = next(closing: UInt8(ascii: "]")) else { return nil }
                if !more { return .array(elements) }
            }
        }

        /// After a member or an element: true for a comma (another follows), false for `closing` (read
        /// past), nil for anything else.
        private mutating func next(closing: UInt8) -> Bool? {
            skipSpace()
            guard index < bytes.count else { return nil }
            index += 1
            switch bytes[index - 1] {
            case UInt8(ascii: ","): return true
            case closing: return false
            default: return nil
            }
        }

        /// A string of printable ASCII with no escape.
        private mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            // Eight bytes at a time (`PlainJSONText`): a receipt request's string is megabytes.
            guard let end = bytes.withUnsafeBufferPointer({ PlainJSONText.plainStringEnd($0, from: start) }) else {
                return nil
            }
            index = end + 1
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }

        private mutating func literal(_ word: StaticString, _ value: QuickJSON) -> QuickJSON? {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count,
                word.withUTF8Buffer({ bytes[index..<(index + count)].elementsEqual($0) })
            else { return nil }
            index += count
            return value
        }

        /// An integer in Int64, written as JSON writes one (no leading zero, no fraction, no exponent).
        private mutating func integer() -> QuickJSON? {
            let negative = bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            let start = index
            var value: Int64 = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                let digit = Int64(bytes[index] - UInt8(ascii: "0"))
                let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowAgain) =
                    negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
                guard !overflow, !overflowAgain else { return nil }
                value = sum
                index += 1
            }
            let digits = index - start
            guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") {
                return nil
            }
            return .integer(value)
        }
    }
}

/// Takes an object's fields by type: a required field missing, null or of another type, or an optional
/// one of another type, marks the whole read failed (the caller then lets `JSONDecoder` answer).
public struct QuickFields {
    public let members: [String: QuickJSON]
    public private(set) var failed = false

    public init(_ members: [String: QuickJSON]) { self.members = members }

    public mutating func string(_ key: String) -> String { optionalString(key) ?? fail("") }

    public mutating func optionalString(_ key: String) -> String? {
        switch members[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: return fail(nil)
        }
    }

    public mutating func integer(_ key: String) -> Int64 { optionalInteger(key) ?? fail(0) }

    public mutating func optionalInteger(_ key: String) -> Int64? {
        switch members[key] {
        case nil, .null?: return nil
        case .integer(let value)?: return value
        default: return fail(nil)
        }
    }

    public mutating func bool(_ key: String) -> Bool { optionalBool(key) ?? fail(false) }

    public mutating func optionalBool(_ key: String) -> Bool? {
        switch members[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        default: return fail(nil)
        }
    }

    public mutating func object(_ key: String) -> QuickFields {
        guard case .object(let members)? = self.members[key] else { return fail(QuickFields([:])) }
        return QuickFields(members)
    }

    /// A required array of strings.
    public mutating func strings(_ key: String) -> [String] {
        guard case .array(let elements)? = members[key] else { return fail([]) }
        var found: [String] = []
        found.reserveCapacity(elements.count)
        for element in elements {
            guard case .string(let text) = element else { return fail([]) }
            found.append(text)
        }
        return found
    }

    /// An optional array of strings: nil when missing or null.
    public mutating func optionalStrings(_ key: String) -> [String]? {
        switch members[key] {
        case nil, .null?: return nil
        default: return strings(key)
        }
    }

    /// A required array of objects, each read by its own fields (their failures are theirs to check).
    public mutating func objects(_ key: String) -> [QuickFields] {
        guard case .array(let elements)? = members[key] else { return fail([]) }
        var found: [QuickFields] = []
        found.reserveCapacity(elements.count)
        for element in elements {
            guard case .object(let members) = element else { return fail([]) }
            found.append(QuickFields(members))
        }
        return found
    }

    /// An optional array of objects: nil when missing or null.
    public mutating func optionalObjects(_ key: String) -> [QuickFields]? {
        switch members[key] {
        case nil, .null?: return nil
        default: return objects(key)
        }
    }

    /// A required raw value of an enum (`StoreEnvironment`, `NotificationType`…); nil only when failed.
    public mutating func raw<T: RawRepresentable<String>>(_ key: String, as type: T.Type) -> T? {
        guard let text = optionalString(key) else { return fail(nil) }
        return T(rawValue: text) ?? fail(nil)
    }

    public mutating func optionalRaw<T: RawRepresentable<String>>(_ key: String, as type: T.Type) -> T? {
        guard let text = optionalString(key) else { return nil }
        return T(rawValue: text) ?? fail(nil)
    }

    private mutating func fail<T>(_ placeholder: T) -> T {
        failed = true
        return placeholder
    }
}
