/// Where a JSON text first breaks, counted as Foundation's `JSONSerialization` counts it ("around character
/// N"), for a config file's syntax error: FoundationEssentials' decoder says only that the text is not JSON.
/// `JSONSyntaxTests` holds every answer to JSONSerialization's on valid, broken and mutated texts.
enum JSONSyntax {
    enum Problem: Error, Equatable {
        /// The text breaks at this offset: arrays or objects nested too deeply, a control character inside a
        /// string, or anything else out of place.
        case nestedTooDeeply(Int)
        case controlCharacter(Int)
        case invalid(Int)
        /// The text ends before its value is complete.
        case endOfFile
        /// Foundation names no offset (a bad `\u` escape, a lone surrogate): the caller looks elsewhere.
        case unplaced
    }

    /// nil when the text parses.
    static func problem(in bytes: [UInt8]) -> Problem? {
        let body = bytes.count > 3 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        var scanner = Scanner(bytes: body)
        do {
            try scanner.document()
            return nil
        } catch {
            return error
        }
    }
}

/// A recursive-descent reader that only checks: it keeps no values.
private struct Scanner {
    let bytes: [UInt8]
    var index = 0
    var depth = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func document() throws(JSONSyntax.Problem) {
        _ = try skipSpace()
        try value()
        var ahead = index
        while ahead < bytes.count {
            guard Self.isSpace(bytes[ahead]) else { throw .invalid(ahead) }
            ahead += 1
        }
    }

    private mutating func value() throws(JSONSyntax.Problem) {
        let start = index
        var ahead = index
        while ahead < bytes.count {
            let byte = bytes[ahead]
            if Self.isSpace(byte) {
                ahead += 1
                continue
            }
            index = ahead
            switch byte {
            case UInt8(ascii: "\""): return try string()
            case UInt8(ascii: "{"): return try container(closedBy: UInt8(ascii: "}"), keyed: true)
            case UInt8(ascii: "["): return try container(closedBy: UInt8(ascii: "]"), keyed: false)
            case UInt8(ascii: "t"): return try word("true")
            case UInt8(ascii: "f"): return try word("false")
            case UInt8(ascii: "n"): return try word("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default:
                // Foundation names where the spaces before the character began.
                throw .invalid(start)
            }
        }
        throw .endOfFile
    }

    /// The next byte that is not a space, with `index` on it.
    private mutating func skipSpace() throws(JSONSyntax.Problem) -> UInt8 {
        while index < bytes.count {
            if !Self.isSpace(bytes[index]) { return bytes[index] }
            index += 1
        }
        throw .endOfFile
    }

    private mutating func container(closedBy close: UInt8, keyed: Bool) throws(JSONSyntax.Problem) {
        index += 1
        guard depth < 512 else { throw .nestedTooDeeply(index) }
        depth += 1
        defer { depth -= 1 }
        if try skipSpace() == close {
            index += 1
            return
        }
        while true {
            if keyed {
                try string()
                guard try skipSpace() == UInt8(ascii: ":") else { throw .invalid(index) }
                index += 1
                _ = try skipSpace()
            }
            try value()
            let next = try skipSpace()
            guard next == close || next == UInt8(ascii: ",") else { throw .invalid(index) }
            index += 1
            if next == close { return }
            // Foundation takes a trailing comma.
            if try skipSpace() == close {
                index += 1
                return
            }
        }
    }

    private mutating func word(_ text: String) throws(JSONSyntax.Problem) {
        for expected in text.utf8 {
            guard index < bytes.count else { throw .endOfFile }
            let byte = bytes[index]
            index += 1
            if byte != expected { throw index >= bytes.count ? .endOfFile : .invalid(index - 1) }
        }
    }

    private mutating func string() throws(JSONSyntax.Problem) {
        guard bytes[index] == UInt8(ascii: "\"") else { throw .invalid(index) }
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return
            case 0...31: throw .controlCharacter(index)
            case UInt8(ascii: "\\"): try escape()
            default: index += 1
            }
        }
        throw .endOfFile
    }

    private mutating func escape() throws(JSONSyntax.Problem) {
        index += 1
        guard index < bytes.count else { throw .endOfFile }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return
        case UInt8(ascii: "u"):
            let code = try hex()
            if code & 0xFC00 == 0xD800 {
                guard index + 2 <= bytes.count else { throw .endOfFile }
                // Foundation's message for a missing low surrogate begins "Unexpected end of file".
                guard bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw .endOfFile
                }
                index += 2
                guard try hex() & 0xFC00 == 0xDC00 else { throw .endOfFile }
            } else if code & 0xFC00 == 0xDC00 {
                throw .unplaced
            }
        case 0x80...:
            // Half a character is no UTF-8: Foundation reports that, with no place.
            throw .unplaced
        default:
            // Foundation counts this one from the backslash's letter, less one.
            throw .invalid(index - 2)
        }
    }

    private mutating func hex() throws(JSONSyntax.Problem) -> UInt16 {
        guard index + 4 <= bytes.count else { throw .endOfFile }
        var code: UInt16 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Self.hexDigit(byte) else { throw .unplaced }
            code = code << 4 | UInt16(digit)
        }
        index += 4
        return code
    }

    private mutating func number() throws(JSONSyntax.Problem) {
        enum Last { case digits, point, exponent, sign }
        var last = Last.digits
        var digits = bytes[index] == UInt8(ascii: "-") ? 0 : 1
        var leadingZero = bytes[index] == UInt8(ascii: "0")
        var length = 1
        while index + length < bytes.count {
            let at = index + length
            let byte = bytes[at]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if leadingZero { throw .invalid(at) }
                if byte == UInt8(ascii: "0") && digits == 0 && last == .digits { leadingZero = true }
                digits += 1
            case UInt8(ascii: "."):
                guard digits > 0, last == .digits else { throw .invalid(at) }
                (leadingZero, last, digits) = (false, .point, 0)
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard digits > 0, last == .digits || last == .point else { throw .invalid(at) }
                (leadingZero, last, digits) = (false, .exponent, 0)
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard digits == 0, last == .exponent else { throw .invalid(at) }
                (last, digits) = (.sign, 0)
            case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"):
                guard digits > 0 else { throw .invalid(at) }
                index = at
                return
            default:
                guard Self.isSpace(byte), digits > 0 else { throw .invalid(at) }
                index = at
                return
            }
            length += 1
        }
        guard digits > 0 else { throw .endOfFile }
        index = bytes.count
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
