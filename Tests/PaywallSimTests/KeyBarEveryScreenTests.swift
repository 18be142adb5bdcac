import AppFlow
import Simulation
import Testing
import WhiteLabel

@testable import TerminalUI

/// At 80x24, the smallest terminal the front draws in, the key bar of every screen of every bundled app keeps the keys
/// that always work ("Tab focus", "? keys", "q quit"), whatever pane has the focus: the parental gate's bar dropped
/// "? keys · q quit" (session 35). A field that takes letters (log in, sign up) types `?` and `q`, so its bar keeps
/// "Tab focus" only.
struct KeyBarEveryScreenTests {
    @Test(arguments: SnapshotTests.apps)
    func everyScreenKeepsTheAlwaysKeysAtEightyColumns(_ app: String) throws {
        let config = try DemoConfigLoader.load(path: "\(SnapshotFiles.packageRoot)/demo-configs/\(app).json")
        let theme = try TerminalFixture.theme()
        let stops = try ScreenTour.run(config: config)
        #expect(stops.count > 5)
        for stop in stops {
            for focus in [Focus.phone, .timeline, .controls] {
                var state = FrontState()
                state.focus = focus
                let frame = FrontView.render(
                    TerminalFixture.content(screen: stop.screen), state: state, theme: theme,
                    size: TerminalSize(columns: 80, rows: 24))
                let bar = frame.lines[23]
                let typing = stop.screen.isTypingLetters && focus == .phone
                for key in typing ? ["Tab focus"] : ["Tab focus", "? keys", "q quit"] {
                    #expect(bar.contains(key), "\(app) \(stop.id.rawValue), focus \(focus): \(bar)")
                }
            }
        }
    }

    /// The gate's answer is a number: digits go into it, and `q` and `?` keep their meaning, as the bar says.
    @Test func theGatesAnswerTakesDigitsAndLeavesTheOtherKeysTheirMeaning() throws {
        let config = try DemoConfigLoader.load(path: "\(SnapshotFiles.packageRoot)/demo-configs/kids-stories.json")
        let gate = try #require(try ScreenTour.run(config: config).first { $0.id == .parentalGate }).screen
        #expect(gate.isEditingDigits)
        #expect(!gate.isTypingLetters)
        let digits = gate.isEditingDigits
        #expect(
            KeyMap.action(for: .character("7"), focus: .phone, textFieldFocused: true, digitsOnly: digits)
                == .reader(.character("7")))
        #expect(KeyMap.action(for: .character("q"), focus: .phone, textFieldFocused: true, digitsOnly: digits) == .quit)
        #expect(KeyMap.action(for: .character("?"), focus: .phone, textFieldFocused: true, digitsOnly: digits) == .help)
        // A field of letters still types them.
        #expect(KeyMap.action(for: .character("q"), focus: .phone, textFieldFocused: true) == .reader(.character("q")))
    }
}
