import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Argument parsing and wiring only; each command lives in its own file.
let arguments = Array(CommandLine.arguments.dropFirst())
exit(CommandLineInterface.run(arguments))
