import AppFlow
import CNcurses
import Testing

@testable import TerminalUI

struct TerminalKeyMapTests {
    @Test(
        "Phone keys reach the app as reader input",
        arguments: [
            (KeyPress.function(KEY_UP), ReaderInput.up), (.function(KEY_DOWN), .down), (.character("k"), .up),
            (.character("j"), .down), (.character("\n"), .select), (.character("\r"), .select),
            (.function(KEY_ENTER), .select), (.character("\u{1B}"), .back), (.function(KEY_BACKSPACE), .deleteBackward),
        ])
    func phoneKeys(key: KeyPress, input: ReaderInput) {
        #expect(KeyMap.action(for: key, focus: .phone) == .reader(input))
    }

    @Test(
        "Keys that work everywhere",
        arguments: [
            (KeyPress.character("q"), KeyAction.quit), (.character("?"), .help), (.character("\t"), .focusNext),
            (.function(KEY_BTAB), .focusNext), (.function(KEY_RESIZE), .resize),
        ])
    func globalKeys(key: KeyPress, action: KeyAction) {
        #expect(KeyMap.action(for: key, focus: .phone) == action)
        #expect(KeyMap.action(for: key, focus: .timeline) == action)
        #expect(KeyMap.action(for: key, focus: .controls) == action)
    }

    @Test(
        "With the timeline focused, movement keys scroll it and Esc returns to the phone",
        arguments: [
            (KeyPress.function(KEY_UP), KeyAction.scrollTimeline(.lineUp)), (.character("k"), .scrollTimeline(.lineUp)),
            (.function(KEY_DOWN), .scrollTimeline(.lineDown)), (.character("j"), .scrollTimeline(.lineDown)),
            (.function(KEY_PPAGE), .scrollTimeline(.pageUp)), (.function(KEY_NPAGE), .scrollTimeline(.pageDown)),
            (.function(KEY_END), .scrollTimeline(.latest)), (.function(KEY_HOME), .scrollTimeline(.oldest)),
            (.character("\u{1B}"), .focusPhone), (.character("f"), .cycleTimelineFilter),
            (.character("c"), .focusControls),
        ])
    func timelineKeys(key: KeyPress, action: KeyAction) {
        #expect(KeyMap.action(for: key, focus: .timeline) == action)
    }

    @Test func pageKeysDoNothingOnThePhoneAndUnknownKeysAreIgnored() {
        #expect(KeyMap.action(for: .function(KEY_PPAGE), focus: .phone) == nil)
        #expect(KeyMap.action(for: .character("x"), focus: .phone) == nil)
        #expect(KeyMap.action(for: .function(KEY_F0 + 5), focus: .phone) == nil)
    }

    @Test func aFocusedTextFieldGetsLettersThatAreKeysElsewhere() {
        for letter: Character in ["q", "k", "j", "?", "é"] {
            #expect(
                KeyMap.action(for: .character(letter), focus: .phone, textFieldFocused: true)
                    == .reader(.character(letter)))
        }
        #expect(KeyMap.action(for: .character("\t"), focus: .phone, textFieldFocused: true) == .focusNext)
        #expect(
            KeyMap.action(for: .character("\u{7F}"), focus: .phone, textFieldFocused: true) == .reader(.deleteBackward))
    }
}

struct TerminalFrontStateTests {
    @Test func tabMovesFocusAndReaderInputOnlyLeavesFromThePhone() {
        var state = FrontState()
        #expect(state.apply(.reader(.down)) == .send(.down))
        #expect(state.apply(.focusNext) == nil)
        #expect(state.focus == .timeline)
        #expect(state.apply(.reader(.down)) == nil)
        _ = state.apply(.focusNext)
        #expect(state.focus == .controls)
        #expect(state.apply(.reader(.down)) == nil)
        _ = state.apply(.focusNext)
        #expect(state.focus == .phone)
    }

    @Test func helpTakesTheKeysUntilClosed() {
        var state = FrontState()
        _ = state.apply(.help)
        #expect(state.showsHelp)
        #expect(state.apply(.reader(.down)) == nil)
        #expect(state.apply(.focusNext) == nil)
        #expect(state.focus == .phone)
        _ = state.apply(.reader(.back))
        #expect(!state.showsHelp)
        _ = state.apply(.help)
        #expect(state.apply(.quit) == .quit)
    }

    @Test func timelineScrollStaysWithinItsLines() {
        var state = FrontState()
        state.focus = .timeline
        _ = state.apply(.scrollTimeline(.pageUp), timelinePage: 10, timelineLimit: 25)
        _ = state.apply(.scrollTimeline(.pageUp), timelinePage: 10, timelineLimit: 25)
        #expect(state.timelineScrollBack == 20)
        _ = state.apply(.scrollTimeline(.pageUp), timelinePage: 10, timelineLimit: 25)
        #expect(state.timelineScrollBack == 25)
        _ = state.apply(.scrollTimeline(.latest), timelinePage: 10, timelineLimit: 25)
        #expect(state.timelineScrollBack == 0)
        _ = state.apply(.scrollTimeline(.lineDown), timelinePage: 10, timelineLimit: 25)
        #expect(state.timelineScrollBack == 0)
    }

    @Test(
        "The checklist's keys, for a guided walk",
        arguments: [
            (KeyPress.function(KEY_UP), KeyAction.walk(.up)), (.character("j"), .walk(.down)),
            (.character("\n"), .walk(.choose)), (.character("n"), .walk(.nextStep)),
            (.character("s"), .walk(.saveReport)),
            (.character("l"), .walk(.toggleList)), (.character("w"), .focusPhone), (.character("\u{1B}"), .focusPhone),
        ])
    func checklistKeys(key: KeyPress, action: KeyAction) {
        #expect(KeyMap.action(for: key, focus: .checklist) == action)
    }

    @Test func wJumpsToTheChecklistAndSpacePausesUnlessTyping() {
        #expect(KeyMap.action(for: .character("w"), focus: .phone) == .focusChecklist)
        #expect(KeyMap.action(for: .character(" "), focus: .phone) == .togglePause)
        #expect(KeyMap.action(for: .character("w"), focus: .phone, textFieldFocused: true) == .reader(.character("w")))
        #expect(KeyMap.action(for: .character("n"), focus: .phone) == nil)
        // Without a walk, w and the checklist's keys change nothing.
        var state = FrontState()
        #expect(state.apply(.focusChecklist) == nil)
        #expect(state.focus == .phone)
        #expect(state.apply(.togglePause) == nil)
    }
}

/// The key bar offers only keys that do what it says: in a text field the letters are typed.
struct KeyBarTypingTests {
    @Test func aTextFieldOnThePhoneOffersNoLetterItWouldType() {
        let screenKeys = [KeyHint("type", "fill in"), KeyHint("Enter", "next"), KeyHint("Esc", "back")]
        let typing = KeyBar.hints(screenKeys: screenKeys, focus: .phone, typing: true).map(\.key)
        #expect(typing == ["type", "Enter", "Esc", "Tab"])
        for letter: Character in ["q", "c", "?"] {
            #expect(
                KeyMap.action(for: .character(letter), focus: .phone, textFieldFocused: true)
                    == .reader(.character(letter)))
        }
        let elsewhere = KeyBar.hints(screenKeys: screenKeys, focus: .phone).map(\.key)
        #expect(elsewhere.contains("c") && elsewhere.contains("q") && elsewhere.contains("?"))
    }

    /// `play --live`: Space says what it will do now: pause, resume, or nothing once the replay ended.
    @Test func aLiveReplaysBarSaysWhatSpaceDoesNow() {
        func space(paused: Bool, finished: Bool) -> String? {
            KeyBar.hints(screenKeys: [], focus: .phone, mode: .live(paused: paused, finished: finished))
                .first { $0.key == "Space" }?.action
        }
        #expect(space(paused: false, finished: false) == "pause")
        #expect(space(paused: true, finished: false) == "resume")
        #expect(space(paused: false, finished: true) == nil)
    }
}
