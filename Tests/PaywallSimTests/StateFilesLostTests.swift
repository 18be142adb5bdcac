import Foundation
import Testing

@testable import Simulation

/// A state folder's own files that are gone or cannot be read are refused, naming the file, and the folder is left
/// as it was: never made again in their place, never set aside as corrupt, never written through (session 29).
@Suite struct StateFilesLostTests {
    /// A symbolic link at `lock`: the pid was written into the file it pointed to, whatever that held.
    @Test func aLockThatIsASymbolicLinkIsRefusedAndItsTargetKept() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let notes = "\(directory)/notes.txt"
        try "my notes\n".write(toFile: notes, atomically: true, encoding: .utf8)
        let folder = "\(directory)/state"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let lock = "\(folder)/\(StateLock.fileName)"
        for target in [notes, "\(directory)/not-there"] {
            try? FileManager.default.removeItem(atPath: lock)
            try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: target)
            #expect {
                _ = try StateLock(folder: folder)
            } throws: { error in
                "\(error)" == "\(lock): a symbolic link, which the lock never follows; remove it, the next run makes "
                    + "its own lock file"
            }
            #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes\n")
            #expect(!FileManager.default.fileExists(atPath: "\(directory)/not-there"))
        }
    }

    /// `run --state .` on a folder of a person's files wrote a state folder among them, over their `phone` and
    /// `lock`: refused, as `bench` refuses it, and nothing written.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed: apt-get install tmux"))
    func runRefusesAFolderOfOtherFilesAndWritesNothing() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "Call mum: 555-0100\n".write(toFile: "\(directory)/phone", atomically: true, encoding: .utf8)
        try "combination: 12-34-56\n".write(toFile: "\(directory)/lock", atomically: true, encoding: .utf8)
        try "TODO\n".write(toFile: "\(directory)/todo.txt", atomically: true, encoding: .utf8)
        let before = try StateFolderTests.files(directory)
        let tmux = try TmuxSession(["run", "--state", directory], width: 200)
        tmux.waitFor("EXIT=2")
        #expect(
            tmux.screen.contains(
                "--state: \(directory) holds files paywall-sim did not make (phone, todo.txt) and is not a state folder"
            ),
            "\(tmux.screen)")
        #expect(try StateFolderTests.files(directory) == before)
    }
}
