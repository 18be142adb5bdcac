import Foundation

// Argument parsing and wiring only; each command lives in its own file.
let arguments = Array(CommandLine.arguments.dropFirst())
exit(CommandLineInterface.run(arguments))
