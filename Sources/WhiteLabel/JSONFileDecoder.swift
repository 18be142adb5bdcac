import FoundationEssentials

/// Decodes a JSON file into a model, turning every failure into a `ConfigError` that names
/// the file and the field path (or the line for a syntax error).
enum JSONFileDecoder {
    /// `trailingCommas`: a `.storekit` file is Xcode's, read as Xcode's JSONSerialization reads it; an app config or a
    /// theme is the owner's, read strictly (a trailing comma is refused at its line).
    static func decode<T: Decodable>(
        _ type: T.Type, from data: Data, file: String, trailingCommas: Bool = false
    ) throws(ConfigError) -> T {
        let value: T
        do {
            value = try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw describe(error, data: data, file: file)
        } catch {
            throw ConfigError(file: file, message: "cannot be read as JSON (\(error.failureDescription))")
        }
        // Configs, themes and `.storekit` files alike: a key given twice loses one of its values in silence.
        if let duplicate = JSONDuplicateKeys.error(in: data, file: file) { throw duplicate }
        if !trailingCommas, let comma = JSONTrailingCommas.error(in: data, file: file) { throw comma }
        return value
    }

    static func readData(atPath path: String) throws(ConfigError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw ConfigError(file: path, message: exists ? "cannot be read" : "no such file")
        }
        return data
    }

    private static func describe(_ error: DecodingError, data: Data, file: String) -> ConfigError {
        switch error {
        case .keyNotFound(let key, let context):
            return ConfigError(
                file: file, location: fieldPath(context.codingPath + [key]),
                message: "is missing" + misspelling(of: key.stringValue, at: context.codingPath, in: data))
        case .typeMismatch(let expected, let context):
            return ConfigError(
                file: file, location: fieldPath(context.codingPath),
                message: "should be \(typeName(expected))")
        case .valueNotFound(let expected, let context):
            return ConfigError(
                file: file, location: fieldPath(context.codingPath),
                message: "should be \(typeName(expected)), not null")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return syntaxError(data, file: file) }
            return ConfigError(
                file: file, location: fieldPath(context.codingPath), message: plainWords(context.debugDescription))
        @unknown default:
            return ConfigError(file: file, message: "cannot be decoded")
        }
    }

    /// " (the file has \"productID\" there: a typo?)" when a key beside the missing one is close to its name.
    private static func misspelling(of key: String, at path: [CodingKey], in data: Data) -> String {
        var value = JSONTree.value(data)
        for part in path {
            if let index = part.intValue {
                guard let list = value as? [Any], list.indices.contains(index) else { return "" }
                value = list[index]
            } else {
                value = (value as? [String: Any])?[part.stringValue]
            }
        }
        guard let object = value as? [String: Any] else { return "" }
        let near = object.keys.sorted().first { UnknownFields.nearest(to: $0, among: [key]) != nil }
        return near.map { " (the file has \"\($0)\" there: a typo?)" } ?? ""
    }

    /// `app.subscriptions[2].productId`
    static func fieldPath(_ path: [CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text.isEmpty ? "(top level)" : text
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type, is Double.Type: return "a number"
        case is [Any].Type: return "a list"
        default:
            return String(describing: type).hasPrefix("Array") ? "a list" : "an object"
        }
    }

    /// Foundation's decoder does not say where a syntax error is, but its parser says "around
    /// character N" for most; the others (an empty file, text that is not UTF-8, a number too large,
    /// the end of the file reached too early) are found here, so every message has a line.
    private static func syntaxError(_ data: Data, file: String) -> ConfigError {
        if data.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) {
            return ConfigError(file: file, message: "is empty: a JSON object was expected")
        }
        if let offset = TextFile.firstInvalidUTF8(Array(data)) {
            return ConfigError(
                file: file, location: TextFile.location(of: offset, in: data), message: "is not UTF-8 text")
        }
        let problem = JSONSyntax.problem(in: Array(data))
        let placed: (offset: Int, why: String)? =
            switch problem {
            case .nestedTooDeeply(let offset): (offset, " (nested too deeply)")
            case .controlCharacter(let offset): (offset, " (a control character inside a string)")
            case .invalid(let offset): (offset, "")
            case .endOfFile, .unplaced, nil: nil
            }
        if let (offset, why) = placed {
            return ConfigError(
                file: file, location: TextFile.location(of: min(offset, data.count), in: data),
                message: "is not valid JSON\(why)")
        }
        if problem == .endOfFile {
            return ConfigError(
                file: file, location: TextFile.location(of: data.count, in: data),
                message: "is not valid JSON: the file ends before the value is complete")
        }
        // The parser took it, the decoder did not: a number it cannot hold (too large for a 64-bit
        // integer or a double, or a fraction where a whole number goes). The first such literal is named.
        if let (offset, number) = unusualNumber(in: Array(data)) {
            let isWhole = !number.contains { ".eE".contains($0) }
            return ConfigError(
                file: file, location: TextFile.location(of: offset, in: data),
                message: isWhole
                    ? "the number \(number.prefix(40)) is too large"
                    : "the number \(number.prefix(40)) cannot be read where a whole number goes")
        }
        return ConfigError(file: file, message: "is not valid JSON")
    }

    private static func unusualNumber(in bytes: [UInt8]) -> (Int, String)? {
        var index = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") {
                inString = true
                index += 1
                continue
            }
            guard byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                index += 1
                continue
            }
            var end = index + 1
            while end < bytes.count && "0123456789.eE+-".utf8.contains(bytes[end]) { end += 1 }
            let literal = String(decoding: bytes[index..<end], as: UTF8.self)
            let isInteger = !literal.contains { ".eE".contains($0) }
            if !isInteger || Int64(literal) == nil {
                return (index, literal)
            }
            index = end
        }
        return nil
    }

    /// Foundation's "Cannot initialize BasicColor from invalid String value purple" in a person's words, with the
    /// values the field takes, as other messages name them (session 28: "keep" for `backend.restorePolicy` said only
    /// that it was not one).
    private static func plainWords(_ description: String) -> String {
        guard description.hasPrefix("Cannot initialize "), let range = description.firstRange(of: " value ") else {
            return description
        }
        let value = description[range.upperBound...]
        let type = description.dropFirst("Cannot initialize ".count).prefix { $0 != " " }
        let values = valuesTaken[String(type)].map { ": \($0.joined(separator: ", "))" } ?? ""
        return
            "\"\(value.prefix(40))\(value.count > 40 ? "…" : "")\" is not one of the values this field takes\(values)"
    }

    /// Each enumeration an input file names by its raw value, by the type's name Foundation's message gives.
    private static let valuesTaken: [String: [String]] = [
        "RestorePolicy": RestorePolicy.allCases.map(\.rawValue),
        "Mode": AccountPolicy.Mode.allCases.map(\.rawValue),
        "Kind": StoreProductSpec.Kind.allCases.map(\.rawValue),
        "PaymentMode": IntroductoryOfferSpec.PaymentMode.allCases.map(\.rawValue),
        "Eligibility": OfferCodeSpec.Eligibility.allCases.map(\.rawValue),
        "BasicColor": Theme.BasicColor.allCases.map(\.rawValue),
        "BorderStyle": Theme.BorderStyle.allCases.map(\.rawValue),
    ]
}
