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
}
