import Foundation
import Simulation
import Testing

/// A file that cannot be read is an error said on the timeline, never "there is none".
@Suite struct UnreadableFilesTests {
    /// The phone of a world kept in `directory` bought a subscription; the options reopen the folder.
    private func subscribed(in directory: String) throws -> WorldOptions {
        let options = WorldOptions(latency: .none, stateDirectory: directory)
        let world = try World(config: try TestSupport.demoConfig(), options: options)
        world.launchAndSettle()
        world.buyFromFeed()
        #expect(world.problems.isEmpty)
        return options
    }

    @Test func aCorruptIdentityIsKeptAsideAndSaidNotSilentlyReplaced() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let options = try subscribed(in: directory)
        let identity = "\(directory)/devices/iphone/identity.json"
        let garbled = "{\"id\": \"anon-1\", trunc"
        try garbled.write(toFile: identity, atomically: true, encoding: .utf8)

        let reopened = try World(config: try TestSupport.demoConfig(), options: options)
        reopened.launchAndSettle()
        let problem = try #require(reopened.problems.first)
        #expect(problem.hasPrefix("error: identity.json on iphone cannot be read; kept as identity.json.unreadable-1"))
        #expect(reopened.timeline.entries.contains { $0.text == problem })
        #expect(
            try String(contentsOfFile: "\(identity).unreadable-1", encoding: .utf8) == garbled,
            "the unreadable file is kept for a person to recover the identity from")
    }

    /// A file that cannot be opened once the world is running is not "no identity": it is kept aside and said,
    /// and the identity the app then makes does not overwrite it. (One that cannot be opened when the folder is
    /// opened is refused and left where it is: `StateFilesLostTests`.)
    @Test func anIdentityThatCannotBeOpenedIsKeptAsideNotOverwritten() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let options = try subscribed(in: directory)
        let identity = "\(directory)/devices/iphone/identity.json"
        let saved = try String(contentsOfFile: identity, encoding: .utf8)
        let reopened = try World(config: try TestSupport.demoConfig(), options: options)
        // A folder where the file was: reading it fails with an error that is not "no such file".
        try FileManager.default.removeItem(atPath: identity)
        try FileManager.default.createDirectory(atPath: identity, withIntermediateDirectories: false)
        try saved.write(toFile: "\(identity)/identity.json", atomically: true, encoding: .utf8)

        reopened.launchAndSettle()
        let problem = try #require(reopened.problems.first)
        #expect(problem.hasPrefix("error: identity.json on iphone cannot be read; kept as identity.json.unreadable-1"))
        #expect(
            try String(contentsOfFile: "\(identity).unreadable-1/identity.json", encoding: .utf8) == saved,
            "the identity is still there for a person to recover")
    }
}
