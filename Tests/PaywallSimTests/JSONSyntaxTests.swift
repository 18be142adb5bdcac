import Foundation
import Testing

@testable import WhiteLabel

/// The config loader places a syntax error where Foundation's `JSONSerialization` did ("around character N"),
/// without Foundation: `JSONSyntax` must answer as it does for broken texts and thousands of mutations of the
/// demo configs (valid UTF-8 only: the loader names invalid UTF-8 before it asks).
@Suite struct JSONSyntaxTests {
    private static let broken = [
        #"{"a": 1,, }"#, #"{"a": [1, 2}"#, "{\"a\": \"x\ty\"}", #"{"a": 1"#, String(repeating: "[", count: 600),
        "[01]", "[-01]", "[1.]", "[1e]", "[1e+]", "[-]", "[.5]", #"["\q"]"#, #"["\u12"]"#, #"["\uZZZZ"]"#,
        #"["\uD800"]"#, #"["\uD800\u0041"]"#, #"["\uDC00"]"#, "[tru]", "[trux]", "[nul", #"{"a" 1}"#, "{a: 1}",
        #"{"a": 1} x"#, "  x", "[1,]", #"{"a":1,}"#, "\u{FEFF}{\"a\": x}", "\u{FEFF}", "[1 2]", #"{"a": }"#, "[,1]",
        #"["a"#, #"["a\"#, "1", "\"x\"", "[99999999999999999999999]", #"["\é"]"#,
    ]

    private func foundation(_ bytes: [UInt8]) -> JSONSyntax.Problem {
        do {
            _ = try JSONSerialization.jsonObject(with: Data(bytes))
            return .unplaced
        } catch {
            let detail = "\((error as NSError).userInfo[NSDebugDescriptionErrorKey] ?? "")"
            if let range = detail.range(of: "around character "),
                let offset = Int(detail[range.upperBound...].prefix { $0.isNumber })
            {
                if detail.hasPrefix("Too many nested") { return .nestedTooDeeply(offset) }
                if detail.hasPrefix("Unescaped control character") { return .controlCharacter(offset) }
                return .invalid(offset)
            }
            return detail.hasPrefix("Unexpected end of file") ? .endOfFile : .unplaced
        }
    }

    @Test func everyBrokenTextIsPlacedAsFoundationPlacesIt() {
        for text in Self.broken {
            let bytes = Array(text.utf8)
            #expect(JSONSyntax.problem(in: bytes) ?? .unplaced == foundation(bytes), "\(text.prefix(40))")
        }
    }

    @Test func mutatedDemoConfigsArePlacedAsFoundationPlacesThem() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../demo-configs")
        var random = SeededBytes(state: 7)
        let alphabet = Array(" \t\n{}[]:,\"\\0123456789.-+eEtrufalsn/xu".utf8) + [0x01, 0x1F]
        var checked = 0
        for name in ["daily-news.json", "podcast-club.storekit"] {
            let original = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            for _ in 0..<400 {
                var bytes = original
                for _ in 0...random.next(2) {
                    let at = random.next(bytes.count - 1)
                    switch random.next(2) {
                    case 0: bytes[at] = alphabet[random.next(alphabet.count - 1)]
                    case 1: bytes.remove(at: at)
                    default: bytes.insert(alphabet[random.next(alphabet.count - 1)], at: at)
                    }
                }
                for text in [bytes, Array(bytes.prefix(random.next(bytes.count)))]
                where String(bytes: text, encoding: .utf8) != nil {
                    #expect(JSONSyntax.problem(in: text) ?? .unplaced == foundation(text))
                    checked += 1
                }
            }
        }
        #expect(checked > 1_000)
    }
}

/// A fixed sequence of small numbers, so the mutations are the same on every run.
private struct SeededBytes {
    var state: UInt64

    /// A number in 0...upper.
    mutating func next(_ upper: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(upper + 1))
    }
}
