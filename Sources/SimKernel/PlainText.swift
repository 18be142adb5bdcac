#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few text helpers the package took from Foundation's NSString, on the standard library alone: every
/// module imports FoundationEssentials, not Foundation, so the process maps neither libFoundation nor ICU.
extension StringProtocol {
    /// Without leading and trailing spaces and tabs (Foundation's `CharacterSet.whitespaces`).
    public func trimmingSpaces() -> String { trimming { $0.properties.isWhitespace && !Self.isNewline($0) } }

    /// Without leading and trailing white space and line breaks (`CharacterSet.whitespacesAndNewlines`).
    public func trimmingWhitespace() -> String { trimming { $0.properties.isWhitespace } }

    /// Cut or padded with spaces to `length` characters, as NSString's `padding(toLength:withPad:startingAt:)`.
    public func padded(toLength length: Int) -> String {
        count >= length ? String(prefix(length)) : String(self) + String(repeating: " ", count: length - count)
    }

    private func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }) else { return "" }
        let last = scalars.lastIndex { !drop($0) }!
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[first...last])
        return String(kept)
    }

    private static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        (0x0A...0x0D).contains(scalar.value) || [0x85, 0x2028, 0x2029].contains(scalar.value)
    }
}

extension String {
    /// `format` filled in by C's printf, as Foundation's `String(format:)` does for numbers (`%d`, `%.2f`):
    /// in the C locale, so a terminal session's `setlocale` never turns a decimal point into a comma.
    public init(printf format: String, _ arguments: any CVarArg...) {
        let previous = uselocale(Self.cLocale)
        defer { uselocale(previous) }
        self = withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 256)
            let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
            guard needed >= buffer.count else { return Self.text(buffer, count: needed) }
            buffer = [CChar](repeating: 0, count: needed + 1)
            return withVaList(arguments) { again in
                _ = vsnprintf(&buffer, buffer.count, format, again)
                return Self.text(buffer, count: needed)
            }
        }
    }

    /// The first `count` bytes printf wrote (none when it failed, a negative count), as UTF-8.
    private static func text(_ buffer: [CChar], count: Int) -> String {
        String(decoding: buffer.prefix(Swift.max(count, 0)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    nonisolated(unsafe) private static let cLocale = newlocale(1 << LC_NUMERIC, "C", nil)
}

extension StringProtocol {
    /// Every control character but a line end and a tab written as `\u{1B}`: text from a file (a config's app
    /// name, a `.storekit` display name, a scenario line) printed to a terminal must not drive it (`ESC ] 0 ;`
    /// retitles the window), and a person sees that the file holds one.
    public var withVisibleControls: String {
        guard unicodeScalars.contains(where: Self.isHidden) else { return String(self) }
        var shown = ""
        for scalar in unicodeScalars {
            if Self.isHidden(scalar) {
                shown += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control && scalar != "\n" && scalar != "\t"
    }
}

/// Writes straight to a file descriptor, unbuffered, as FileHandle's `write` did (progress lines and warnings
/// interleave with `print` in the order they were written).
public enum StandardStream {
    public static func error(_ text: String) { put(text, to: 2) }
    public static func output(_ text: String) { put(text, to: 1) }

    private static func put(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
