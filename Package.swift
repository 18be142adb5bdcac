// swift-tools-version:6.0
// PaywallSim: a terminal simulator of a white-label app's subscription flow.
// Only the toolchain and three Debian C libraries: ncursesw, sqlite3, libcrypto.
import PackageDescription

let package = Package(
    name: "PaywallSim",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "paywall-sim", targets: ["paywall-sim"])
    ],
    targets: [
        // No pkgConfig for ncursesw: SwiftPM would drop its -D flags with a warning; the shim sets them.
        .systemLibrary(
            name: "CNcurses",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(
            name: "CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        // The terminal's signal flag, saved termios and crash handlers: C state defined once.
        .target(name: "CTerminal", linkerSettings: [.linkedLibrary("ncursesw")]),
        .target(name: "SimKernel"),
        .target(name: "WhiteLabel", dependencies: ["SimKernel"]),
        // A VFS over SQLite's own that writes a WAL transaction's frames with one pwrite: C, for SQLite calls it.
        .target(name: "CWALWrites", dependencies: ["CSQLite"], linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "Database", dependencies: ["CSQLite", "CWALWrites"]),
        .target(name: "Signing", dependencies: ["CCrypto"]),
        .target(name: "StoreSim", dependencies: ["SimKernel", "WhiteLabel", "Database", "Signing"]),
        .target(name: "BackendSim", dependencies: ["SimKernel", "WhiteLabel", "StoreSim", "Database", "Signing"]),
        .target(name: "Subscriptions", dependencies: ["SimKernel"]),
        .target(name: "AppFlow", dependencies: ["Subscriptions", "WhiteLabel", "SimKernel"]),
        .target(
            name: "Simulation",
            dependencies: [
                "SimKernel", "WhiteLabel", "StoreSim", "BackendSim", "Subscriptions", "AppFlow", "Database", "Signing",
            ]),
        .target(
            name: "Scenarios",
            dependencies: [
                "Simulation", "AppFlow", "WhiteLabel", "SimKernel", "StoreSim", "Subscriptions",
            ]),
        .target(
            name: "Fuzzing",
            dependencies: ["Scenarios", "Simulation", "AppFlow", "StoreSim", "SimKernel", "WhiteLabel", "Subscriptions"]),
        .target(
            name: "TerminalUI",
            dependencies: ["Simulation", "Scenarios", "AppFlow", "WhiteLabel", "SimKernel", "CNcurses", "CTerminal"]),
        .executableTarget(
            name: "paywall-sim",
            dependencies: [
                "Simulation", "TerminalUI", "AppFlow", "WhiteLabel", "Scenarios", "SimKernel", "StoreSim", "Fuzzing",
                "Subscriptions", "BackendSim", "Database", "Signing",
            ]),
        .testTarget(
            name: "PaywallSimTests",
            dependencies: [
                "SimKernel", "WhiteLabel", "Database", "Signing", "StoreSim", "BackendSim", "Subscriptions", "AppFlow",
                "Simulation", "TerminalUI", "Scenarios", "Fuzzing", "CNcurses", "CWALWrites",
            ]),
    ]
)
