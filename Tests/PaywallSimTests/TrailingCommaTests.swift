import Foundation
import Testing

@testable import WhiteLabel

/// Foundation's decoder takes a trailing comma (`[1, 2,]`), so a config or a theme with one loaded, and the same file
/// broke in any strict reader the owner also feeds it (session 35). Refused at its line, exit 2, as a syntax error is;
/// a `.storekit` file is Xcode's, read as Xcode reads it.
@Suite struct TrailingCommaTests {
    @Test func aConfigWithATrailingCommaInAnObjectIsRefusedAtItsLine() throws {
        let text = try TestSupport.packageText("demo-configs/daily-news.json")
        let edited = text.replacingOccurrences(of: "\"kids\": false,", with: "\"kids\": false,,")
            .replacingOccurrences(of: "\"hideForSubscribers\": true }", with: "\"hideForSubscribers\": true, }")
        let cleaner = text.replacingOccurrences(
            of: "\"hideForSubscribers\": true }", with: "\"hideForSubscribers\": true,\n    }")
        #expect(cleaner != text)
        #expect(throws: ConfigError.self) { try DemoConfigLoader.decode(Data(edited.utf8), file: "x.json") }
        let error = #expect(throws: ConfigError.self) {
            try DemoConfigLoader.decode(Data(cleaner.utf8), file: "news.json")
        }
        #expect(error?.file == "news.json")
        #expect(error?.location?.hasPrefix("line 57, column ") == true, "\(error?.description ?? "")")
        #expect(error?.message.contains("trailing comma") == true)
    }

    @Test func aListWithATrailingCommaIsRefusedAndACommaInAStringIsNot() {
        #expect(JSONTrailingCommas.first(in: Array("{\"a\": [1, 2, ]}".utf8)) == 11)
        #expect(JSONTrailingCommas.first(in: Array("{\"a\": \"x,]\", \"b\": \"\\\",}\"}".utf8)) == nil)
        #expect(JSONTrailingCommas.first(in: Array("{\"a\": [1, 2]}".utf8)) == nil)
    }

    @Test func aThemeWithATrailingCommaIsRefused() throws {
        let text = try TestSupport.packageText("themes/newsprint.json")
        guard let last = text.range(of: "}", options: .backwards),
            let before = text[..<last.lowerBound].range(of: "}", options: .backwards)
        else {
            Issue.record("the theme has no closing braces")
            return
        }
        let edited = text.replacingCharacters(in: before, with: "},")
        let error = #expect(throws: ConfigError.self) { try ThemeLoader.decode(Data(edited.utf8), file: "t.json") }
        #expect(error?.message.contains("trailing comma") == true, "\(error?.description ?? "")")
    }

    @Test func everyBundledConfigAndThemeStillLoads() throws {
        let root = TestSupport.packageRoot
        for name in try FileManager.default.contentsOfDirectory(atPath: "\(root)/demo-configs")
        where name.hasSuffix(".json") {
            _ = try DemoConfigLoader.load(path: "\(root)/demo-configs/\(name)")
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: "\(root)/themes") where name.hasSuffix(".json")
        {
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(root)/themes/\(name)"))
            _ = try ThemeLoader.decode(data, file: name)
        }
    }
}
