import Foundation
import Testing

/// `compare --live` in a real terminal: one keyboard drives both phones, the controls act on both worlds.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed: apt-get install tmux"))
struct CompareLiveJourneyTests {
    @Test func oneKeyPressDrivesBothPhonesAndOneControlRestartsBothApps() throws {
        let tmux = try TmuxSession(
            ["compare", CompareTests.finishTradeOff, "--live"], width: 120, height: 40)
        tmux.waitFor("═ finish=after ═")
        // The trade-off's setup fails the first server check; the reader buys the monthly plan in both worlds.
        try tmux.openSheet(offerDowns: 1)
        // Subscribe, above Cancel, where Apple's sheet opens.
        try tmux.send("Up", "Enter")
        tmux.waitFor("could not be confirmed")
        // Both phones show the error: the key went to both worlds.
        #expect(tmux.screen.components(separatedBy: "Your payment went through but").count == 3)
        try tmux.send("Enter")
        tmux.waitUntilGone("could not be confirmed")
        // The control pane's "Restart the app" (third row from the bottom) restarts the app in both worlds.
        try tmux.send("c", "G")
        for _ in 0..<3 { try tmux.send("Up") }
        try tmux.send("Enter")
        tmux.waitFor("[open]")
        let screen = tmux.screen
        // finish=before: still locked after the restart; finish=after: the transaction came back and unlocked.
        #expect(screen.contains("[locked]║║The return of the night trains  [open]"))
        try tmux.quit()
    }
}
