import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Argument parsing and wiring only; each command lives in its own file.
// Past a file-size limit (`ulimit -f`) a write fails with EFBIG, said as the disk failing, instead of SIGXFSZ
// killing the process with the terminal in the alternate screen and no word (h3 07).
signal(SIGXFSZ, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
exit(CommandLineInterface.run(arguments))
