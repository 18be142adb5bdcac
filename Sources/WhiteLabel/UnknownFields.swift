import FoundationEssentials

/// A field a JSON file holds that its `Decodable` model never reads: `introductoryOfer` for `introductoryOffer`
/// dropped a free trial in silence, `acount` an account rule (session 26). The model is decoded again from the
/// file's plain values (`JSONTree`) by a decoder that notes, at each object, the keys the model asked for and the
/// coding-key types it opened there; a key none of them takes is unknown. A dictionary (`prices`, `localizations`)
/// takes every key, so only the model's own field names are checked, never the owner's ids and codes.
enum UnknownFields {
    /// The first unknown field in field-path order, as a `ConfigError` naming it and the nearest known one, and the
    /// others after it, so a file with three typos is fixed in one go.
    static func first<T: Decodable>(_ type: T.Type, in data: Data, file: String) -> ConfigError? {
        guard let tree = JSONTree.value(data) else { return nil }
        let notes = Notes()
        // The file decoded with JSONDecoder already; a model this decoder cannot follow is left unchecked.
        guard (try? T(from: NotingDecoder(value: tree, path: [], notes: notes))) != nil else { return nil }
        var unknown: [(path: String, key: String, known: [String])] = []
        collect(tree, path: [], notes: notes, into: &unknown)
        func location(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
        unknown.sort { location($0.path, $0.key) < location($1.path, $1.key) }
        guard let found = unknown.first else { return nil }
        var message: String
        if let near = nearest(to: found.key, among: found.known) {
            message = "unknown field, which paywall-sim does not read; did you mean \"\(near)\"?"
        } else {
            message =
                "unknown field, which paywall-sim does not read (fields here: \(found.known.joined(separator: ", ")))"
        }
        if unknown.count > 1 {
            message +=
                "; also unknown: " + unknown.dropFirst().map { location($0.path, $0.key) }.joined(separator: ", ")
        }
        return ConfigError(file: file, location: location(found.path, found.key), message: message)
    }

    /// The known key a typo most likely meant: the same letters in another case, or at most two edits away and
    /// fewer than a third of its length.
    static func nearest(to key: String, among known: [String]) -> String? {
        if let same = known.first(where: { $0.lowercased() == key.lowercased() }) { return same }
        let scored = known.map { ($0, distance(Array(key.lowercased()), Array($0.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2, best.1 * 3 < max(key.count, 2) else {
            return nil
        }
        return best.0
    }

    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var row = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var previous = row[0]
            row[0] = i + 1
            for (j, y) in b.enumerated() {
                let next = min(row[j + 1] + 1, row[j] + 1, previous + (x == y ? 0 : 1))
                previous = row[j + 1]
                row[j + 1] = next
            }
        }
        return row[b.count]
    }

    private static func collect(
        _ value: Any, path: [String], notes: Notes, into unknown: inout [(path: String, key: String, known: [String])]
    ) {
        let place = pathText(path)
        if let object = value as? [String: Any] {
            if let seen = notes.objects[place] {
                for key in object.keys where !seen.asked.contains(key) && !seen.takes(key) {
                    unknown.append((place, key, seen.asked.sorted()))
                }
            }
            for (key, child) in object { collect(child, path: path + [key], notes: notes, into: &unknown) }
        } else if let list = value as? [Any] {
            for (index, child) in list.enumerated() {
                collect(child, path: path + ["[\(index)]"], notes: notes, into: &unknown)
            }
        }
    }

    /// `app.subscriptions[2].productId`, as `JSONFileDecoder.fieldPath` writes it.
    static func pathText(_ parts: [String]) -> String {
        parts.reduce("") { text, part in
            part.hasPrefix("[") ? text + part : (text.isEmpty ? part : text + "." + part)
        }
    }

    fileprivate static func parts(_ path: [any CodingKey]) -> [String] {
        path.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
    }

    /// What the model did at each object it opened, by field path.
    fileprivate final class Notes {
        struct Seen {
            var asked: Set<String> = []
            /// Each coding-key type opened there: whether it takes a key (a dictionary's takes any).
            var keyTypes: [(String) -> Bool] = []
            func takes(_ key: String) -> Bool { keyTypes.contains { $0(key) } }
        }
        var objects: [String: Seen] = [:]
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }
}

private func mismatch<T>(_ type: T.Type, _ path: [any CodingKey]) -> DecodingError {
    DecodingError.typeMismatch(type, .init(codingPath: path, debugDescription: "not \(type)"))
}

/// A plain value as `T`: the primitives JSON has, numbers converted only when exact.
private func primitive<T>(_ value: Any, _ type: T.Type, _ path: [any CodingKey]) throws -> T {
    if let same = value as? T { return same }
    if let number = value as? Double {
        let converted: Any? =
            switch type {
            case is Int.Type: Int(exactly: number)
            case is Int8.Type: Int8(exactly: number)
            case is Int16.Type: Int16(exactly: number)
            case is Int32.Type: Int32(exactly: number)
            case is Int64.Type: Int64(exactly: number)
            case is UInt.Type: UInt(exactly: number)
            case is UInt8.Type: UInt8(exactly: number)
            case is UInt16.Type: UInt16(exactly: number)
            case is UInt32.Type: UInt32(exactly: number)
            case is UInt64.Type: UInt64(exactly: number)
            case is Float.Type: Float(number)
            default: nil
            }
        if let converted = converted as? T { return converted }
    }
    throw mismatch(type, path)
}

private struct NotingDecoder: Decoder {
    let value: Any
    let path: [any CodingKey]
    let notes: UnknownFields.Notes
    var codingPath: [any CodingKey] { path }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: Any, path: [any CodingKey], notes: UnknownFields.Notes) {
        self.value = value
        self.path = path
        self.notes = notes
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let object = value as? [String: Any] else { throw mismatch([String: Any].self, path) }
        let place = UnknownFields.pathText(UnknownFields.parts(path))
        notes.objects[place, default: .init()].keyTypes.append { Key(stringValue: $0) != nil }
        return KeyedDecodingContainer(NotingKeyed<Key>(object: object, path: path, place: place, notes: notes))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let list = value as? [Any] else { throw mismatch([Any].self, path) }
        return NotingUnkeyed(list: list, path: path, notes: notes)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { NotingSingle(decoder: self) }
}

private struct NotingKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: [String: Any]
    let path: [any CodingKey]
    let place: String
    let notes: UnknownFields.Notes
    var codingPath: [any CodingKey] { path }
    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool {
        notes.objects[place, default: .init()].asked.insert(key.stringValue)
        return object[key.stringValue] != nil
    }

    private func child(_ key: Key) throws -> NotingDecoder {
        notes.objects[place, default: .init()].asked.insert(key.stringValue)
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: path, debugDescription: "missing"))
        }
        return NotingDecoder(value: value, path: path + [key], notes: notes)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).value is JSONTree.Null }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let decoder = try child(key)
        return try T(from: decoder)
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try scalar(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try scalar(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try scalar(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try scalar(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try scalar(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try scalar(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try scalar(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try scalar(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try scalar(type, key) }

    private func scalar<T>(_ type: T.Type, _ key: Key) throws -> T {
        let decoder = try child(key)
        return try primitive(decoder.value, type, decoder.path)
    }

    func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<Nested>
    {
        try child(key).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }
    func superDecoder() throws -> any Decoder { NotingDecoder(value: object, path: path, notes: notes) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}

private struct NotingUnkeyed: UnkeyedDecodingContainer {
    let list: [Any]
    let path: [any CodingKey]
    let notes: UnknownFields.Notes
    var currentIndex = 0
    var codingPath: [any CodingKey] { path }
    var count: Int? { list.count }
    var isAtEnd: Bool { currentIndex >= list.count }

    init(list: [Any], path: [any CodingKey], notes: UnknownFields.Notes) {
        self.list = list
        self.path = path
        self.notes = notes
    }

    private mutating func next() throws -> NotingDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: path, debugDescription: "at the end"))
        }
        defer { currentIndex += 1 }
        return NotingDecoder(value: list[currentIndex], path: path + [AnyKey(intValue: currentIndex)], notes: notes)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, list[currentIndex] is JSONTree.Null else { return false }
        currentIndex += 1
        return true
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: next()) }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try scalar(type) }
    mutating func decode(_ type: String.Type) throws -> String { try scalar(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try scalar(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try scalar(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try scalar(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try scalar(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try scalar(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try scalar(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try scalar(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(type) }

    private mutating func scalar<T>(_ type: T.Type) throws -> T {
        let decoder = try next()
        return try primitive(decoder.value, type, decoder.path)
    }

    mutating func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type) throws
        -> KeyedDecodingContainer<Nested>
    {
        try next().container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct NotingSingle: SingleValueDecodingContainer {
    let decoder: NotingDecoder
    var codingPath: [any CodingKey] { decoder.path }

    func decodeNil() -> Bool { decoder.value is JSONTree.Null }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: decoder) }
    func decode(_ type: Bool.Type) throws -> Bool { try primitive(decoder.value, type, codingPath) }
    func decode(_ type: String.Type) throws -> String { try primitive(decoder.value, type, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try primitive(decoder.value, type, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try primitive(decoder.value, type, codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try primitive(decoder.value, type, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try primitive(decoder.value, type, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try primitive(decoder.value, type, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try primitive(decoder.value, type, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try primitive(decoder.value, type, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try primitive(decoder.value, type, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try primitive(decoder.value, type, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try primitive(decoder.value, type, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try primitive(decoder.value, type, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try primitive(decoder.value, type, codingPath) }
}
