import Database
import Foundation
import Simulation
import Testing

/// The real binary, as a person calls it: exit codes and messages.
@Suite struct CommandLineTests {
    @Test(arguments: [["--help"], ["run", "--help"], ["screens", "--help"], ["apps", "--help"], ["help"]])
    func helpIsShownAndExitsZero(_ arguments: [String]) throws {
        let result = try TestSupport.runBinary(arguments)
        #expect(result.code == 0)
        #expect(result.stdout.contains("Usage: paywall-sim"))
    }

    @Test func anUnknownOptionIsABadUsageWithExitTwo() throws {
        let result = try TestSupport.runBinary(["run", "--colour"])
        #expect(result.code == 2)
        #expect(result.stderr.contains("unknown option \"--colour\""))
        #expect(result.stdout.isEmpty)
    }

    @Test func anUnknownCommandIsABadUsageWithExitTwo() throws {
        let result = try TestSupport.runBinary(["purchase"])
        #expect(result.code == 2)
        #expect(result.stderr.contains("unknown command \"purchase\""))
    }

    @Test func anUnknownAppNamesTheBundledOnes() throws {
        let result = try TestSupport.runBinary(["screens", "--app", "no-such-app"])
        #expect(result.code == 2)
        #expect(result.stderr.contains("no demo app named \"no-such-app\""))
        #expect(result.stderr.contains("daily-news"))
    }

    /// PAYWALL_SIM_HOME at a folder with no demo apps: `fuzz` divided by their count (exit 132), `apps` printed nothing
    /// and `screens` listed no names, none saying where it looked (session 26).
    @Test(arguments: [
        ["fuzz", "--runs", "1"], ["apps"], ["screens"],
        ["play", "\(TestSupport.packageRoot)/scenarios/purchase.scenario"],
    ])
    func aHomeWithoutDemoAppsIsNamed(_ arguments: [String]) throws {
        let home = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: home) }
        var environment = ProcessInfo.processInfo.environment
        environment["PAYWALL_SIM_HOME"] = home
        environment["XDG_STATE_HOME"] = home + "/state"
        for emptyFolder in [false, true] {
            if emptyFolder {
                try FileManager.default.createDirectory(
                    atPath: home + "/demo-configs", withIntermediateDirectories: false)
            }
            let result = try TestSupport.runBinary(arguments, environment: environment)
            #expect(result.code == 2)
            #expect(result.stderr.contains("PAYWALL_SIM_HOME is \(home)"))
            #expect(
                result.stderr.contains(
                    emptyFolder ? "\(home)/demo-configs holds no demo app" : "no folder \(home)/demo-configs"))
            #expect(!FileManager.default.fileExists(atPath: home + "/state"))
        }
    }

    @Test func aBrokenConfigFileIsNamedWithTheField() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let source = try String(
            contentsOfFile: "\(TestSupport.packageRoot)/demo-configs/daily-news.json", encoding: .utf8)
        let path = "\(directory)/broken.json"
        try source.replacingOccurrences(of: "\"kids\": false", with: "\"kids\": \"no\"").write(
            toFile: path, atomically: true, encoding: .utf8)
        let result = try TestSupport.runBinary(["screens", "--app", path])
        #expect(result.code == 2)
        #expect(result.stderr.contains("\(path): app.kids: should be true or false"))
    }

    /// Each bad option is named, not "needs a terminal": the tests' standard input is not one, so a message
    /// about the terminal means the option was looked at too late.
    @Test(arguments: [
        (["--seed", "x"], "--seed"), (["--latency", "instant"], "--latency"),
        (["--state", "/tmp/x", "--ephemeral"], "--ephemeral"), (["--seed"], "--seed"),
        (["--inject", "payment explode"], "payment has no fault \"explode\""),
        (["--inject", "wifi error"], "unknown target"), (["--inject", "payment"], "--inject"),
        // Quoted as typed: a frequency the user left out is not put in their mouth.
        (["--inject", "receipts bogus"], "\"receipts bogus\": unknown backend fault"),
        (["--inject", "notifications dropped"], "dropped is a fault of Apple's notification target"),
    ])
    func badRunOptionsExitTwoBeforeTouchingTheTerminal(_ arguments: [String], named: String) throws {
        let result = try TestSupport.runBinary(["run"] + arguments)
        #expect(result.code == 2)
        #expect(result.stderr.contains(named))
        #expect(!result.stderr.contains("terminal"))
    }

    @Test func screensPrintsEveryScreenOfTheFlowHeadedByItsIdentifier() throws {
        let result = try TestSupport.runBinary(["screens"])
        #expect(result.code == 0)
        let headings = result.stdout.split(separator: "\n").filter { $0.hasPrefix("[") }.map(String.init)
        #expect(
            headings == [
                "[feed]", "[content]", "[paywall]", "[app-store-sheet]", "[paywall]", "[content]", "[login]",
                "[signup]",
                "[transfer-prompt]", "[profile]", "[manage-subscription]", "[alert]",
            ])
        #expect(result.stdout.contains("Premium Yearly: 1 week free, then $39.99"))
        #expect(!result.stdout.contains("Weekly"))
    }

    @Test func theBundledAppsAreFoundFromAnyWorkingDirectory() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestSupport.binaryPath)
        process.arguments = ["apps"]
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.hasPrefix("daily-news"))
    }

    @Test func checkPaywallSaysWhatIsShownInOrderAndWhyTheRestIsLeftOut() throws {
        let result = try TestSupport.runBinary(["check", "--paywall"])
        #expect(result.code == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.dropFirst().first == "  1. premium-yearly: Premium Yearly: 1 week free, then $39.99 per year")
        #expect(lines.dropFirst(2).first == "  2. premium-monthly: Premium Monthly: $4.99 per month")
        #expect(
            result.stdout.contains("premium-weekly (com.dailynews.premium.weekly): App Store Connect has no product"))
    }

    /// `check --paywall` is the report: a product the paywall does not sell is said once, on its "Not on the paywall"
    /// list, and not again as a warning on stderr (it was both, session 28); `run` and `play` still warn, having no list.
    @Test func checkPaywallSaysAnUnsoldProductOnceInItsReport() throws {
        let storekit = "\(TestSupport.packageRoot)/demo-configs/podcast-club.storekit"
        let result = try TestSupport.runBinary(["check", "--paywall", "--storekit", storekit])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  - com.podcastclub.season3 (Season pass): a non-consumable is bought once"))
        #expect(!result.stderr.contains("com.podcastclub.season3"), "\(result.stderr)")
    }

    /// Issue 14: `check --ledger` never writes, and refuses with one line what is not a ledger —
    /// another app's SQLite file it once stamped its schema into, or a file that is not SQLite at all.
    @Test func checkLedgerRefusesWhatIsNotALedgerAndWritesNothing() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let other = try Database(path: directory + "/backend.sqlite")
        try other.execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')")
        let before = try Data(contentsOf: URL(fileURLWithPath: directory + "/backend.sqlite"))
        let result = try TestSupport.runBinary(["check", "--ledger", "--state", directory])
        #expect(result.code == 2)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("not a ledger"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/backend.sqlite")) == before)
        #expect(try other.query("PRAGMA user_version") == [[.integer(0)]])
        try Data("plain text".utf8).write(to: URL(fileURLWithPath: directory + "/backend.sqlite"))
        let text = try TestSupport.runBinary(["check", "--ledger", "--state", directory])
        #expect(text.code == 2)
        #expect(text.stderr.contains("not a ledger"))
    }

    @Test func checkLedgerCountsWhatAHealthyFolderHolds() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let world = try TestSupport.demoWorld(in: directory, latency: .none)
            world.launchAndSettle()
            world.buyFromFeed()
        }
        let result = try TestSupport.runBinary(["check", "--ledger", "--state", directory])
        #expect(result.code == 0)
        #expect(result.stdout.contains("backend.sqlite: the ledger holds (1 purchase, 0 moves)"), "\(result.stdout)")
    }

    /// `check --ledger --app` finds the folder `run --app` keeps, the app resolved as `run` resolves it, and a
    /// message names the option given: `--app nosuch` said "--state: no ledger at …", and a config's path became
    /// part of the folder's (session 26).
    @Test func checkLedgerResolvesAppAsRunDoesAndNamesTheOptionGiven() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = directory
        let unknown = try TestSupport.runBinary(["check", "--ledger", "--app", "nosuch"], environment: environment)
        #expect(unknown.code == 2)
        #expect(unknown.stderr.contains("--app: no demo app named \"nosuch\""), "\(unknown.stderr)")
        let config = "\(TestSupport.packageRoot)/demo-configs/daily-news.json"
        let empty = try TestSupport.runBinary(["check", "--ledger", "--app", config], environment: environment)
        #expect(empty.code == 2)
        #expect(
            empty.stderr.contains("--app \(config): no ledger at \(directory)/paywall-sim/daily-news/backend.sqlite"),
            "\(empty.stderr)")
        do {
            let world = try World(
                config: try TestSupport.demoConfig(),
                options: WorldOptions(latency: .none, stateDirectory: "\(directory)/paywall-sim/daily-news"))
            world.launchAndSettle()
            world.buyFromFeed()
        }
        let held = try TestSupport.runBinary(["check", "--ledger", "--app", config], environment: environment)
        #expect(held.code == 0, "\(held.stderr)")
        #expect(held.stdout.contains("the ledger holds (1 purchase, 0 moves)"), "\(held.stdout)")
    }

    /// A third party's file must not drive the reader's terminal: `ESC ] 0 ; … BEL` in a product's display name
    /// or an app's name would retitle the window. Each control character is printed as `\u{1B}`, visibly.
    @Test func checkPaywallShowsTheControlCharactersOfItsFilesWithoutSendingThem() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let hostile = "Bad\\u001b]0;PWN\\u0007Name"
        let storekit = try String(
            contentsOfFile: "\(TestSupport.packageRoot)/demo-configs/podcast-club.storekit", encoding: .utf8
        ).replacing("\"displayName\" : \"Season pass\"", with: "\"displayName\" : \"\(hostile)\"")
        try storekit.write(toFile: "\(directory)/hostile.storekit", atomically: true, encoding: .utf8)
        let config = try String(
            contentsOfFile: "\(TestSupport.packageRoot)/demo-configs/daily-news.json", encoding: .utf8
        ).replacing("\"name\": \"Daily News\"", with: "\"name\": \"\(hostile)\"")
        try config.write(toFile: "\(directory)/hostile.json", atomically: true, encoding: .utf8)
        for arguments in [["--storekit", "\(directory)/hostile.storekit"], ["--app", "\(directory)/hostile.json"]] {
            let result = try TestSupport.runBinary(["check", "--paywall"] + arguments)
            #expect(result.code == 0, "\(result.stderr)")
            #expect(result.stdout.contains("Bad\\u{1B}]0;PWN\\u{7}Name"), "\(result.stdout)")
            let sent = (result.stdout + result.stderr).unicodeScalars.filter {
                $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t"
            }
            #expect(sent.isEmpty, "\(arguments)")
        }
    }

    @Test func checkWithoutWhatToCheckIsABadUsage() throws {
        let result = try TestSupport.runBinary(["check"])
        #expect(result.code == 2)
        #expect(result.stderr.contains("--ledger or --paywall"))
    }

    /// An option given twice kept its second value in silence: `compare --vary A --vary B` compared only B (session 37).
    @Test(arguments: [
        ["compare", "scenarios/purchase.scenario", "--vary", "latency=fast,slow", "--vary", "finish=before,after"],
        ["check", "--paywall", "--locale", "fr_FR", "--locale", "de_DE"],
        ["play", "--junit", "a.xml", "--junit", "b.xml", "scenarios/purchase.scenario"],
    ])
    func anOptionGivenTwiceIsABadUsage(_ arguments: [String]) throws {
        let result = try TestSupport.runBinary(
            arguments.map { $0.hasPrefix("scenarios/") ? "\(TestSupport.packageRoot)/\($0)" : $0 })
        #expect(result.code == 2)
        #expect(result.stderr.contains("is given twice"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// Two reports, or files with --list-faults: one was dropped in silence (session 37).
    @Test(arguments: [
        (["play", "--tap", "--markdown"], "--tap and --markdown are two reports: give one"),
        (["play", "--list-faults"], "--list-faults plays nothing"),
    ])
    func playRefusesWhatItWouldDrop(_ arguments: [String], _ message: String) throws {
        let result = try TestSupport.runBinary(arguments + ["\(TestSupport.packageRoot)/scenarios/purchase.scenario"])
        #expect(result.code == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// A `when` naming none of the file's vary worlds: `compare` said it is bad input, `play` ran the file as a failed
    /// comparison, exit 1, and TAP did not bail out (session 37).
    @Test(arguments: [[], ["--tap"]])
    func playRefusesAWhenNamingNoWorldAsCompareDoes(_ report: [String]) throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = "\(directory)/worlds.scenario"
        try "app daily-news\nvary latency=fast,slow\nlaunch\nwhen latency=warp expect screen feed\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        for arguments in [["play"] + report + [file], ["compare", file]] {
            let result = try TestSupport.runBinary(arguments)
            #expect(result.code == 2, "\(arguments)")
            #expect(result.stderr.contains("worlds.scenario:4: when latency=warp names no world"), "\(result.stderr)")
        }
    }
}
