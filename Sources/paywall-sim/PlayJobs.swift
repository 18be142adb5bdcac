import FoundationEssentials
import Scenarios

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--jobs N`: the files split into N chunks, each played by a child process of this same binary,
/// which prints its results as JSON; the parent merges them in the files' order.
enum PlayJobs {
    /// The hidden flag a child is started with: print the results as JSON instead of a report.
    static let resultsFlag = "--results-json"

    static func run(files: [String], jobs: Int) throws -> [ScenarioResult] {
        let count = min(jobs, files.count)
        // Round-robin, so long scenarios in one folder spread over the children.
        let chunks = (0..<count).map { chunk in files.indices.filter { $0 % count == chunk }.map { files[$0] } }
        var children: [Child] = []
        for chunk in chunks { children.append(try Child.spawn(executablePath, ["play", resultsFlag] + chunk)) }
        var byFile: [String: ScenarioResult] = [:]
        for child in children {
            // Children run on; reading one to its end while the others wait on a full pipe cannot deadlock.
            let data = Data(child.readToEnd())
            let status = child.wait()
            guard status == 0 else {
                throw UsageError(message: "--jobs: a child process ended with exit code \(status)")
            }
            for result in try JSONDecoder().decode([ScenarioResult].self, from: data) { byFile[result.file] = result }
        }
        return files.compactMap { byFile[$0] }
    }

    static func encode(_ results: [ScenarioResult]) throws -> String {
        String(decoding: try JSONEncoder().encode(results), as: UTF8.self)
    }

    /// This binary, resolved through /proc on Linux.
    private static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
