import Foundation
import SimKernel
import Subscriptions
import WhiteLabel

/// Where the package's files are, found from this source file so tests run from any directory.
enum TestSupport {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The text of a file of the package (`demo-configs/daily-news.json`), for a test to edit and load.
    static func packageText(_ path: String) throws -> String {
        try String(contentsOfFile: "\(packageRoot)/\(path)", encoding: .utf8)
    }

    /// daily-news's monthly plan as the App Store returns it in the United States, for the reducer's tests.
    static let premiumMonthly = Offer(
        id: "premium-monthly",
        product: StoreProduct(
            productIdentifier: "com.dailynews.premium.monthly", localizedTitle: "Premium Monthly",
            localizedDescription: "", localizedPrice: "$4.99",
            subscriptionPeriod: CalendarPeriod(unit: .month, value: 1),
            freeTrialPeriod: nil))

    static func demoConfig(_ name: String = "daily-news") throws -> DemoConfig {
        try DemoConfigLoader.load(path: "\(packageRoot)/demo-configs/\(name).json")
    }

    /// The error decoding daily-news.json with `old` replaced by `new` gives, nil when it loads; `old` must be there.
    static func configError(replacing old: String, with new: String) throws -> ConfigError? {
        let text = try String(contentsOfFile: "\(packageRoot)/demo-configs/daily-news.json", encoding: .utf8)
        guard text.contains(old) else { throw MissingText(text: old) }
        do {
            _ = try DemoConfigLoader.decode(Data(text.replacingOccurrences(of: old, with: new).utf8), file: "app.json")
            return nil
        } catch {
            return error
        }
    }

    /// A test's edit of a demo config whose text is not in it: the test would judge the file unchanged.
    struct MissingText: Error { let text: String }

    /// The built `paywall-sim` next to the test bundle.
    static var binaryPath: String {
        let bundleDirectory = Bundle.main.bundleURL.path
        for candidate in [bundleDirectory, "\(packageRoot)/.build/debug"] {
            let path = "\(candidate)/paywall-sim"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return "\(packageRoot)/.build/debug/paywall-sim"
    }

    /// The release build when there is one (CI builds it first), else the debug build: signals reached
    /// the release binary's loop through a flag the debug build alone read right.
    /// A release binary older than the newest source file is stale: the debug one is tested instead.
    static var robustnessBinaryPath: String {
        let release = "\(packageRoot)/.build/release/paywall-sim"
        guard FileManager.default.isExecutableFile(atPath: release), let built = modified(release) else {
            return binaryPath
        }
        let sources = FileManager.default.enumerator(atPath: "\(packageRoot)/Sources")?.allObjects as? [String] ?? []
        let newest = sources.compactMap { modified("\(packageRoot)/Sources/\($0)") }.max() ?? .distantPast
        return built >= newest ? release : binaryPath
    }

    private static func modified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    /// A fresh empty directory under the temporary folder, inside this test process's own root.
    static func temporaryDirectory() throws -> String {
        // Short names: tests look for a folder's path on an 80-column screen. A name met twice fails, never shares.
        try FileManager.default.createDirectory(atPath: processRoot, withIntermediateDirectories: true)
        let path = processRoot + "/" + UUID().uuidString.prefix(12)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    /// One folder per test process holds every test's folder and goes when the process exits: a test that fails
    /// before its own clean-up, or keeps its folder for a later step, leaves nothing in /tmp across runs.
    private static let processRoot: String = {
        let path = NSTemporaryDirectory() + "paywall-sim-tests-" + UUID().uuidString.prefix(8)
        atexit { try? FileManager.default.removeItem(atPath: TestSupport.processRoot) }
        return path
    }()

    /// Runs the real binary and returns its exit code, standard output and standard error. It runs in a fresh
    /// temporary folder, removed after: what a command writes beside itself (a fuzz failure's scenario) never lands
    /// in the checkout.
    static func runBinary(_ arguments: [String], stdin: String? = nil, environment: [String: String]? = nil) throws
        -> (code: Int32, stdout: String, stderr: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binaryPath)
        process.arguments = arguments
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        // The default state folder is under the temporary one too: a test never reads or writes a person's.
        var inherited = ProcessInfo.processInfo.environment
        inherited["XDG_STATE_HOME"] = folder + "/state"
        inherited["HOME"] = folder
        process.environment = environment ?? inherited
        let output = Pipe()
        let error = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
