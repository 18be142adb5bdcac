import FoundationEssentials

/// A JSON text as plain Swift values (`[String: Any]`, `[Any]`, `String`, `Bool`, `Double`, `JSONTree.null`),
/// as `JSONSerialization.jsonObject` gave them, read with FoundationEssentials' decoder.
public enum JSONTree {
    /// JSON's `null`.
    public struct Null: Sendable {}

    /// The text's value, or nil when it is not JSON.
    public static func value(_ data: Data) -> Any? {
        guard let node = try? JSONDecoder().decode(Node.self, from: data) else { return nil }
        return node.value
    }

    private struct Node: Decodable {
        let value: Any

        /// Each kind is tried in turn, most common first: a kind that is not the value's throws a `DecodingError`
        /// whose path and words are made for nothing here, and a string, the most common value of a config, was tried
        /// as an object, a list, a flag and a number first (a third of loading a config). No two kinds take the same
        /// value, so the order changes no answer.
        init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                value = Null()
            } else if let text = try? single.decode(String.self) {
                value = text
            } else if let object = try? decoder.container(keyedBy: Key.self) {
                var values: [String: Any] = [:]
                for key in object.allKeys { values[key.stringValue] = try object.decode(Node.self, forKey: key).value }
                value = values
            } else if var list = try? decoder.unkeyedContainer() {
                var values: [Any] = []
                while !list.isAtEnd { values.append(try list.decode(Node.self).value) }
                value = values
            } else if let flag = try? single.decode(Bool.self) {
                value = flag
            } else {
                value = try single.decode(Double.self)
            }
        }
    }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
