import Database
import Foundation
import Signing
import Testing
import WhiteLabel

@testable import BackendSim
@testable import Simulation
@testable import StoreSim

/// A state folder's own files that are gone or cannot be read are refused, naming the file, and the folder is left
/// as it was: never made again in their place, never set aside as corrupt, never written through (session 29).
@Suite struct StateFilesLostTests {
    /// A folder whose phone bought a subscription.
    private func subscribedFolder() throws -> String {
        let directory = try TestSupport.temporaryDirectory()
        let world = try TestSupport.demoWorld(in: directory, latency: .none)
        world.launchAndSettle()
        world.buyFromFeed()
        try #require(world.problems.isEmpty)
        return directory
    }

    /// The error a world opened on `directory` is refused with, nil when it opens; the folder must be as it was.
    private func refusal(_ directory: String, config: DemoConfig? = nil) throws -> String? {
        let before = try files(directory)
        let config = try config ?? TestSupport.demoConfig()
        do {
            _ = try World(config: config, options: WorldOptions(stateDirectory: directory))
            return nil
        } catch {
            #expect(try files(directory) == before, "a refused folder was changed")
            return error.description
        }
    }

    /// Every file under `folder` with its bytes, a symbolic link with where it points (a link that loops is read
    /// by none).
    private func files(_ folder: String) throws -> [String: Data] {
        var found: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder) {
            let full = "\(folder)/\(path)"
            if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: full) {
                found[path] = Data("link to \(link)".utf8)
            } else {
                var isFolder = false
                _ = FileManager.default.fileExists(atPath: full, isDirectory: &isFolder)
                found[path] = isFolder ? Data() : try Data(contentsOf: URL(fileURLWithPath: full))
            }
        }
        return found
    }

    /// A folder as a build older than `keys` and `app` left it: its store and ledger at the schema versions that
    /// build wrote, holding `purchase` if given, and nothing else.
    private func olderFolder(purchase productId: String?) throws -> String {
        let directory = try TestSupport.temporaryDirectory()
        let store = try Database(path: "\(directory)/appstore.sqlite")
        try store.migrate(Array(StoreLedger.migrations.prefix(StateCheck.lastStoreVersionWithout.keys)))
        if let productId {
            try store.run(
                """
                INSERT INTO transactions (transaction_id, original_transaction_id, product_id, apple_id, device_id,
                    purchase_ms) VALUES ('1', '1', ?, 'reader@icloud.test', 'iphone', 0)
                """, [.text(productId)])
        }
        try Database(path: "\(directory)/backend.sqlite").migrate(Array(LedgerSchema.migrations.prefix(4)))
        return directory
    }

    /// `keys` gone (a copy made as another user skips the owner-only file): new keys were written, every phone's
    /// token answered 401 and the paying reader was locked out for good.
    @Test func aFolderWhoseKeysAreGoneIsRefusedAndGetsNoNewOnes() throws {
        let directory = try subscribedFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.removeItem(atPath: "\(directory)/keys")
        let error = try refusal(directory)
        #expect(error?.hasPrefix("\(directory)/keys: missing beside appstore.sqlite: the folder's secrets") == true)
        #expect(error?.hasSuffix("restore it or start a new folder") == true)
    }

    /// `keys` a symbolic link, or not keys at all: "not three base64url keys", without the "left as it is" every
    /// other refusal of the folder's own files says, and a link was read through to whatever it named (h3, session
    /// 29). A link is refused as one, naming it; neither file is touched.
    @Test func keysThatAreALinkOrNotKeysAreRefusedAndLeftAsTheyAre() throws {
        let directory = try subscribedFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/keys"
        let kept = "\(directory).keys"
        defer { try? FileManager.default.removeItem(atPath: kept) }
        try FileManager.default.moveItem(atPath: path, toPath: kept)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: kept)
        #expect(
            try refusal(directory)
                == "\(path): a symbolic link, which the folder's secrets are never read through; it is left as it is")
        try FileManager.default.removeItem(atPath: path)
        try "not keys\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try refusal(directory) == "\(path): not three base64url keys; it is left as it is")
    }

    /// `app` gone beside a store a build that writes it wrote: another app of the same products adopted the folder.
    @Test func aFolderWhoseAppFileIsGoneIsRefusedToEveryApp() throws {
        let directory = try subscribedFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.removeItem(atPath: "\(directory)/app")
        for config in [try TestSupport.demoConfig(), try TestSupport.demoConfig("kids-stories")] {
            let error = try refusal(directory, config: config)
            #expect(error?.hasPrefix("\(directory)/app: missing beside appstore.sqlite: which app's state") == true)
        }
    }

    /// `app` there but unreadable (mode 000 for its non-root owner) was taken as missing and written over with the
    /// running app's name. A link that loops stands in for the permission: it fails to open as root too.
    @Test func anAppFileThatCannotBeReadIsRefusedAndLeftAsItIs() throws {
        let directory = try subscribedFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/app"
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "app")
        #expect(
            try refusal(directory) == "\(path): cannot be read (Too many levels of symbolic links); it is left as it is"
        )
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == "app")
        guard getuid() != 0 else { return }  // root reads a file of mode 000
        try FileManager.default.removeItem(atPath: path)
        try "com.paywallsim.kidsstories kids-stories\n".write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path) }
        #expect(try refusal(directory) == "\(path): cannot be read (Permission denied); it is left as it is")
    }

    /// A phone's file that cannot be opened was taken as corrupt and renamed `identity.json.unreadable-1`: the paying
    /// reader started with no identity. It is refused as an unreadable `keys` is, and left where it is.
    @Test(arguments: ["identity.json", "receipt"])
    func aPhoneFileThatCannotBeOpenedIsRefusedNotSetAside(name: String) throws {
        let directory = try subscribedFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/devices/iphone/\(name)"
        let saved = try Data(contentsOf: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: name)
        #expect(
            try refusal(directory) == "\(path): cannot be read (Too many levels of symbolic links); it is left as it is"
        )
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(try refusal(directory)?.hasPrefix("\(path): is a folder, the phone keeps it in a file") == true)
        try FileManager.default.removeItem(atPath: path)
        try saved.write(to: URL(fileURLWithPath: path))
        guard getuid() != 0 else { return }  // root reads a file of mode 000
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path) }
        #expect(try refusal(directory) == "\(path): cannot be read (Permission denied); it is left as it is")
    }

    /// A folder older than `keys` keeps the keys an older build signed with; older than `app`, it is adopted by an
    /// app that sells what it holds, and refused by another. Both files are made then, and only then.
    @Test func aFolderOlderThanKeysAndAppGetsThemWhenOpened() throws {
        let directory = try olderFolder(purchase: "com.dailynews.premium.monthly")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let error = try refusal(directory, config: TestSupport.demoConfig("fit-track"))
        #expect(error?.hasPrefix("\(directory)/appstore.sqlite: holds purchases of com.dailynews.") == true)
        let world = try World(config: TestSupport.demoConfig(), options: WorldOptions(stateDirectory: directory))
        let held = SigningKey(seed: Digest.sha256(Array("paywall-sim app store receipt key".utf8)))
        #expect(world.store.verifyingKey == held?.publicKey)
        #expect(
            try String(contentsOfFile: "\(directory)/app", encoding: .utf8) == "com.paywallsim.dailynews daily-news\n")
        let reopened = try World(config: TestSupport.demoConfig(), options: WorldOptions(stateDirectory: directory))
        #expect(reopened.store.verifyingKey == held?.publicKey)
    }

    /// A symbolic link at `lock`: the pid was written into the file it pointed to, whatever that held. `check
    /// --ledger`'s reading hold opened it through the link too (h3, session 29).
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
            let refused =
                "\(lock): a symbolic link, which the lock never follows; remove it, the next run makes its own "
                + "lock file"
            #expect { _ = try StateLock(folder: folder) } throws: { "\($0)" == refused }
            #expect { _ = try StateLock.reading(folder: folder) } throws: { "\($0)" == refused }
            #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes\n")
            #expect(!FileManager.default.fileExists(atPath: "\(directory)/not-there"))
        }
    }

    /// `run` with no `--state`, its default folder a file: the message began "--state:", an option nobody gave (h3,
    /// session 29). It names the folder as `check --ledger` does.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed: apt-get install tmux"))
    func runNamesItsDefaultFolderNotAnOptionNotGiven() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: "\(directory)/paywall-sim", withIntermediateDirectories: false)
        let folder = "\(directory)/paywall-sim/daily-news"
        try "not a folder\n".write(toFile: folder, atomically: true, encoding: .utf8)
        let tmux = try TmuxSession(
            ["run"], width: 200, environment: "LANG=C.UTF-8 TERM=xterm-256color XDG_STATE_HOME=\(directory)")
        tmux.waitFor("EXIT=2")
        #expect(tmux.screen.contains("daily-news's state folder: \(folder) is a file, not a folder"), "\(tmux.screen)")
        #expect(!tmux.screen.contains("--state"), "\(tmux.screen)")
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
