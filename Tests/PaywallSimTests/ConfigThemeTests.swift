import Foundation
import Testing

/// A config's theme is checked by every command that loads the config, as `run` checks it: `check --paywall`,
/// `screens` and `play` passed a config whose theme was missing, broken or a path, that `run` refused (session 28).
@Suite struct ConfigThemeTests {
    /// The bundled daily-news config with `theme` as its theme, beside a scenario that opens it.
    private func folder(theme: String) throws -> (directory: String, config: String) {
        let directory = try TestSupport.temporaryDirectory()
        let source = try String(
            contentsOfFile: "\(TestSupport.packageRoot)/demo-configs/daily-news.json", encoding: .utf8)
        let config = "\(directory)/themed.json"
        let edited = source.replacingOccurrences(of: "\"theme\": \"newsprint\"", with: "\"theme\": \"\(theme)\"")
        #expect(edited != source)
        try edited.write(toFile: config, atomically: true, encoding: .utf8)
        try "app \(config)\nlaunch\n".write(toFile: "\(directory)/t.scenario", atomically: true, encoding: .utf8)
        return (directory, config)
    }

    @Test(arguments: [
        // No such theme; a file that is not a theme; a path, even to a theme, is not a theme's name.
        ("nosuch", "\"nosuch\": "), ("../demo-configs/daily-news", "is a theme's name"),
        ("../themes/midnight", "is a theme's name"),
    ])
    func everyCommandThatLoadsTheConfigRefusesItsTheme(theme: String, words: String) throws {
        let (directory, config) = try folder(theme: theme)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for command in [
            ["check", "--paywall", "--app", config], ["screens", "--app", config], ["run", "--app", config],
            ["play", "\(directory)/t.scenario"],
        ] {
            let result = try TestSupport.runBinary(command)
            #expect(result.code == 2, "\(command): \(result.stdout)")
            #expect(result.stderr.contains("\(config): app.theme: "), "\(command): \(result.stderr)")
            #expect(result.stderr.contains(words), "\(command): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(command): \(result.stderr)")
        }
    }
}
