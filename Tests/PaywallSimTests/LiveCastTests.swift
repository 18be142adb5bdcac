import Foundation
import Testing

/// `play --live FILE --cast OUT.cast`: an asciicast v2 file, checked line by line as a player reads it.
@Suite struct LiveCastTests {
    private let scenario = "\(TestSupport.packageRoot)/scenarios/purchase.scenario"

    private func cast(pace: String) throws -> (text: String, code: Int32) {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/demo.cast"
        let result = try TestSupport.runBinary(["play", "--live", scenario, "--pace", pace, "--cast", path])
        return (try String(contentsOfFile: path, encoding: .utf8), result.code)
    }

    @Test func theRecordingIsAsciicastV2FrameByFrameOnTheVirtualPace() throws {
        let (text, code) = try cast(pace: "0.5")
        #expect(code == 0)
        let lines = text.split(separator: "\n").map(String.init)
        let header = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(header["version"] as? Int == 2)
        let width = try #require(header["width"] as? Int)
        let height = try #require(header["height"] as? Int)
        #expect(width > 0 && height > 0)
        var last = -1.0
        var frames: [String] = []
        for line in lines.dropFirst() {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any], "\(line)")
            #expect(event.count == 3)
            let time = try #require((event[0] as? NSNumber)?.doubleValue)
            #expect(time >= last, "times never go back")
            last = time
            #expect(event[1] as? String == "o")
            let data = try #require(event[2] as? String)
            // Each frame redraws the whole screen: height rows, none wider than the width.
            #expect(data.hasPrefix("\u{1B}[H\u{1B}[2J"))
            let rows = data.components(separatedBy: "\r\n")
            #expect(rows.count == height)
            for row in rows {
                let plain = row.replacingOccurrences(
                    of: #"\u{1B}\[[0-9;]*[A-Za-z]"#, with: "", options: .regularExpression)
                #expect(plain.count <= width)
            }
            frames.append(data)
        }
        #expect(frames.count >= 3)
        // A step every 0.5 virtual seconds: the last step's frame is at (steps - 1) × 0.5.
        #expect(last.truncatingRemainder(dividingBy: 0.5) == 0)
        #expect(frames.last?.contains("PASSED") == true)
    }

    @Test func theSameScenarioGivesTheSameFileByteForByte() throws {
        #expect(try cast(pace: "1").text == (try cast(pace: "1").text))
    }

    /// A `try` step the screen refuses lets the replay go on, as headless `play` does (session 27: the live replay
    /// stopped there, FAILED, exit 1).
    @Test func aRefusedTryStepEndsTheReplayAsPlayEndsIt() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = "\(directory)/try.scenario"
        try "title Try\napp daily-news\nlaunch\nopen profile\ntry manage subscription\nopen feed\nexpect ads shown\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let played = try TestSupport.runBinary(["play", file])
        let cast = try TestSupport.runBinary(["play", "--live", file, "--pace", "0", "--cast", "\(directory)/t.cast"])
        #expect(played.code == 0)
        #expect(cast.code == 0, "\(cast.stdout)")
    }

    @Test func castWithoutLiveIsAUsageError() throws {
        let result = try TestSupport.runBinary(["play", scenario, "--cast", "/tmp/never.cast"])
        #expect(result.code == 2)
        #expect(result.stderr.contains("--cast goes with --live"))
    }
}
