/// The options of one command, parsed strictly: an unknown option or a missing value is a usage error.
struct Options {
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    /// `valued` options take the next argument; `flags` take none. `-h`/`--help` is always known.
    /// File and folder names on their own; options and their values (`valued` take one) go to `Options`.
    static func split(_ arguments: [String], valued: Set<String>) -> (paths: [String], options: [String]) {
        var paths: [String] = []
        var options: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if valued.contains(argument) {
                options.append(argument)
                if index + 1 < arguments.count { options.append(arguments[index + 1]) }
                index += 1
            } else if argument.hasPrefix("-") {
                options.append(argument)
            } else {
                paths.append(argument)
            }
            index += 1
        }
        return (paths, options)
    }

    init(_ arguments: [String], valued: Set<String>, flags knownFlags: Set<String>) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "-h" || argument == "--help" {
                flags.insert("--help")
            } else if valued.contains(argument) {
                guard index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") else {
                    throw UsageError(message: "\(argument) needs a value")
                }
                // One value is kept: a second was dropped in silence, `compare --vary A --vary B` comparing only B
                // (session 37).
                if let first = values[argument] {
                    throw UsageError(
                        message:
                            "\(argument) is given twice (\"\(first)\", then \"\(arguments[index + 1])\"): give it once")
                }
                values[argument] = arguments[index + 1]
                index += 1
            } else if knownFlags.contains(argument) {
                flags.insert(argument)
            } else {
                let known = (valued.union(knownFlags).union(["--help"])).sorted().joined(separator: ", ")
                throw UsageError(message: "unknown option \"\(argument)\" (options: \(known))")
            }
            index += 1
        }
    }

    subscript(_ name: String) -> String? { values[name] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// A whole number option within `range`.
    func integer(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws(UsageError) -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                message: "\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\""
            )
        }
        return value
    }
}
