import Foundation
import Testing

@testable import TerminalUI

/// Every output option's write (session 26): pointed at a device node it replaced the device with a regular file,
/// and at a symbolic link it replaced the link, the file it pointed to never updated and its mode lost. Each test
/// makes its own FIFO and links in a temporary folder: no test points at a real device.
@Suite struct OutputWriterTests {
    private func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    private func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    @Test func aLinkIsFollowedAndTheFileItPointsToKeepsItsMode() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: "\(directory)/kept", withIntermediateDirectories: false)
        let real = "\(directory)/kept/real.xml"
        try "old\n".write(toFile: real, atomically: true, encoding: .utf8)
        #expect(chmod(real, 0o640) == 0)
        // A relative link, from another folder.
        #expect(symlink("kept/real.xml", "\(directory)/link.xml") == 0)
        let written = try OutputWriter.write("new\n", to: "\(directory)/link.xml")
        #expect(written == "\(directory)/kept/real.xml")
        #expect(isLink("\(directory)/link.xml"))
        #expect(try String(contentsOfFile: real, encoding: .utf8) == "new\n")
        #expect(mode(real) == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(directory)/kept") == ["real.xml"])
    }

    @Test func aLinkToNothingMakesTheFileItNames() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(symlink("\(directory)/made.cast", "\(directory)/dangling.cast") == 0)
        try OutputWriter.write("cast\n", to: "\(directory)/dangling.cast")
        #expect(isLink("\(directory)/dangling.cast"))
        #expect(try String(contentsOfFile: "\(directory)/made.cast", encoding: .utf8) == "cast\n")
    }

    @Test func aFIFOIsWrittenThroughAndStaysAFIFO() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = "\(directory)/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Thread {
            let handle = FileHandle(forReadingAtPath: fifo)
            let data = handle?.readDataToEndOfFile() ?? Data()
            try? data.write(to: URL(fileURLWithPath: "\(directory)/read"))
        }
        reader.start()
        #expect(try OutputWriter.target(fifo) == .passThrough(path: fifo))
        try OutputWriter.write("through the pipe\n", to: fifo)
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: "\(directory)/read") { usleep(10_000) }
        #expect(try String(contentsOfFile: "\(directory)/read", encoding: .utf8) == "through the pipe\n")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func aFolderIsRefused() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: OutputWriteError.self) { try OutputWriter.write("x", to: directory) }
        #expect(symlink(directory, "\(directory)-link") == 0)
        defer { unlink("\(directory)-link") }
        #expect(throws: OutputWriteError.self) { try OutputWriter.write("x", to: "\(directory)-link") }
    }

    /// A full disk, as `/dev/full` is: the write fails with the system's words, and a file that was there is left
    /// as it was, with no temporary file beside it.
    @Test func aFullDiskIsSaidAndLeavesTheOldFile() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let full: ByteWriter = { _, _ in
            errno = ENOSPC
            return -1
        }
        let path = "\(directory)/report.xml"
        try "the last report\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            try OutputWriter.write("a new report\n", to: path, writer: full)
        } throws: { error in
            "\(error)" == "\(path): No space left on device"
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "the last report\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["report.xml"])

        let fifo = "\(directory)/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Thread { _ = FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() }
        reader.start()
        #expect {
            try OutputWriter.write("a new report\n", to: fifo, writer: full)
        } throws: { error in
            "\(error)" == "\(fifo): No space left on device"
        }
    }

    /// A file that is not this kind's own output as written is kept, even when it came after the start's check.
    @Test func aFileThatIsNotOursIsNeverReplaced() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/session.scenario"
        try OutputWriter.write("# recorded by paywall-sim run\nlaunch\n", to: path, as: .recording)
        let ours = try String(contentsOfFile: path, encoding: .utf8)
        #expect(OwnOutput.recording.isOwn(ours))
        try OutputWriter.write("# recorded by paywall-sim run\nlaunch\nsubscribe\n", to: path, as: .recording)
        let edited = try String(contentsOfFile: path, encoding: .utf8) + "expect screen paywall\n"
        try edited.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: OutputWriteError.self) {
            try OutputWriter.write("# recorded by paywall-sim run\n", to: path, as: .recording)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == edited)
    }
}
