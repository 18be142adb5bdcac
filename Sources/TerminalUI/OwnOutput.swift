import FoundationEssentials

/// A kind of file paywall-sim writes (a JUnit report, a cast, a recording, a walk's report, a fuzz failure), and
/// how it knows one it may write over: exactly as it wrote it, down to the byte. Each carries a seal, a digest of the
/// whole text, in a comment at its end (in a cast, a field of its header). The first line alone was the test, so a
/// pytest JUnit report, an asciinema recording, a recording a QA engineer extended by hand and a person's notes headed
/// "# Walk report" were written over (session 26): any of them, or ours edited, is now kept.
public struct OwnOutput: Sendable {
    /// How the file starts: the kind, so one kind's file is never taken for another's.
    let start: String
    let form: Form

    enum Form: Sendable {
        /// A last line `prefix SEAL suffix`: a comment in the file's language.
        case lastLine(prefix: String, suffix: String)
        /// A field at the end of the first line's JSON object (asciicast v2's header; players ignore it).
        case castHeader
    }

    public static let junit = OwnOutput(
        start: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites ",
        form: .lastLine(prefix: "<!-- ", suffix: " -->"))
    public static let cast = OwnOutput(start: "{\"version\": 2, ", form: .castHeader)
    public static let walkReport = OwnOutput(
        start: "# Walk report\n", form: .lastLine(prefix: "\n<!-- ", suffix: " -->"))
    public static let recording = OwnOutput(
        start: "# recorded by paywall-sim", form: .lastLine(prefix: "\n# ", suffix: ""))
    public static let fuzzFailure = OwnOutput(
        start: "# Found by paywall-sim fuzz", form: .lastLine(prefix: "\n# ", suffix: ""))

    /// The seal's words; `hex` is 16 lowercase hex digits, so the seal has one length.
    static func phrase(_ hex: String) -> String {
        "paywall-sim seal \(hex): paywall-sim writes over this file only while it is unedited"
    }

    /// `text` with its seal.
    public func sealed(_ text: String) -> String {
        let open = placed(text, hex: String(repeating: "0", count: 16))
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in open.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return placed(text, hex: String(repeating: "0", count: 16 - hex.count) + hex)
    }

    /// Whether `text` is this kind's file as paywall-sim wrote it, not a byte changed.
    public func isOwn(_ text: String) -> Bool {
        guard text.hasPrefix(start), let body = body(of: text) else { return false }
        return sealed(body) == text
    }

    /// Whether the bytes are this kind's own file, or nothing (an empty file holds nothing to lose).
    public func mayReplace(_ data: Data) -> Bool {
        data.isEmpty || isOwn(String(decoding: data, as: UTF8.self))
    }

    private func placed(_ text: String, hex: String) -> String {
        switch form {
        case .lastLine(let prefix, let suffix):
            return (text.hasSuffix("\n") || text.isEmpty ? text : text + "\n") + prefix + Self.phrase(hex) + suffix
                + "\n"
        case .castHeader:
            let bytes = Array(text.utf8)
            let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            guard end > 0, bytes[end - 1] == UInt8(ascii: "}") else { return text }
            return String(decoding: bytes[..<(end - 1)], as: UTF8.self) + Self.castField(hex)
                + String(decoding: bytes[end...], as: UTF8.self)
        }
    }

    private static func castField(_ hex: String) -> String { ", \"x-paywall-sim\": \"\(phrase(hex))\"}" }

    /// The text before its seal, when the seal's place holds one of its length.
    private func body(of text: String) -> String? {
        switch form {
        case .lastLine(let prefix, let suffix):
            let length = (prefix + Self.phrase(String(repeating: "0", count: 16)) + suffix + "\n").utf8.count
            let bytes = Array(text.utf8)
            guard bytes.count >= length else { return nil }
            return String(decoding: bytes.dropLast(length), as: UTF8.self)
        case .castHeader:
            let bytes = Array(text.utf8)
            let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let length = Self.castField(String(repeating: "0", count: 16)).utf8.count
            guard end >= length else { return nil }
            return String(decoding: bytes[..<(end - length)], as: UTF8.self) + "}"
                + String(decoding: bytes[end...], as: UTF8.self)
        }
    }
}
