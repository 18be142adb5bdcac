import Foundation

/// Decodes a JSON file into a model, turning every failure into a `ConfigError` that names
/// the file and the field path (or the line for a syntax error).
enum JSONFileDecoder {
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, file: String) throws(ConfigError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw describe(error, data: data, file: file)
        } catch {
            throw ConfigError(file: file, message: "cannot be read as JSON (\(error.localizedDescription))")
        }
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
                file: file, location: fieldPath(context.codingPath + [key]), message: "is missing")
        case .typeMismatch(let expected, let context):
            return ConfigError(
                file: file, location: fieldPath(context.codingPath),
                message: "should be \(typeName(expected))")
        case .valueNotFound(let expected, let context):
            return ConfigError(
                file: file, location: fieldPath(context.codingPath),
                message: "should be \(typeName(expected)), not null")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return ConfigError(file: file, location: syntaxLocation(data), message: "is not valid JSON")
            }
            return ConfigError(
                file: file, location: fieldPath(context.codingPath), message: context.debugDescription)
        @unknown default:
            return ConfigError(file: file, message: "cannot be decoded")
        }
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

    /// Foundation's decoder does not say where a syntax error is, but its parser says
    /// "around character N"; turn that into a line and column.
    private static func syntaxLocation(_ data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data)
            return nil
        } catch {
            let detail = "\((error as NSError).userInfo[NSDebugDescriptionErrorKey] ?? "")"
            guard let range = detail.range(of: "character "),
                let offset = Int(detail[range.upperBound...].prefix { $0.isNumber })
            else { return nil }
            let before = data.prefix(offset)
            let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
            let column = offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
            return "line \(line), column \(column)"
        }
    }
}
