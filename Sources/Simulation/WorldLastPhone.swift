import FoundationEssentials
import SimKernel

/// The phone a state folder's last run left on screen, kept in `STATE/phone` (its name, then the Apple ID it is
/// signed into, a line each), so `run` reopens the folder on it. Every run opened on "iphone": a guest's
/// subscription bought on a phone made with "New device" was out of reach from the next run on, for under
/// `keep-with-original-owner` a restore on another phone is refused (session 26).
struct LastPhone: Equatable {
    let name: String
    /// A family member's phone is signed into the member's Apple ID, not the world's.
    let appleId: String

    static func file(in state: String) -> String { "\(state)/phone" }

    /// The phone the folder records; nil when it records none (a new folder, or one an earlier build wrote). Throws
    /// why a record cannot be used: unreadable, not a name and an Apple ID, or a phone whose folder is gone.
    static func read(in state: String) throws(WorldSetupError) -> LastPhone? {
        let path = file(in: state)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw WorldSetupError(description: "\(path): cannot be read (\(error.failureDescription))")
        }
        let lines = text.split(separator: "\n").map(String.init)
        guard lines.count == 2, lines.allSatisfy({ !$0.isEmpty && !$0.contains(where: \.isWhitespace) }),
            !lines[0].contains("/"), lines[0] != ".", lines[0] != ".."
        else {
            throw WorldSetupError(description: "\(path): not a phone's name and Apple ID")
        }
        var isFolder = false
        guard FileManager.default.fileExists(atPath: "\(state)/devices/\(lines[0])", isDirectory: &isFolder), isFolder
        else {
            throw WorldSetupError(description: "\(path): names \(lines[0]), which \(state)/devices does not hold")
        }
        return LastPhone(name: lines[0], appleId: lines[1])
    }

    /// Replaces the record atomically: a kill never leaves half of one.
    func write(in state: String) throws {
        try StateFile.write(Data("\(name)\n\(appleId)\n".utf8), to: Self.file(in: state))
    }
}

extension World {
    /// The phone a world opens on: with `reopensLastPhone`, the one its state folder's last run left on screen,
    /// else `options.deviceName` on the world's Apple ID; with the timeline line that says why when not the record's.
    static func openingPhone(_ options: WorldOptions) -> (phone: LastPhone, line: String?) {
        let fallback = LastPhone(name: options.deviceName, appleId: options.appleId)
        guard options.reopensLastPhone, let state = options.stateDirectory else { return (fallback, nil) }
        do {
            if let last = try LastPhone.read(in: state) {
                let line =
                    last == fallback ? nil : "the app reopens on \(last.name), the phone the last run left on screen"
                return (last, line)
            }
        } catch {
            return (fallback, "\(error.description); the app starts on \(fallback.name)")
        }
        // A folder with phones and no record is an earlier build's: said, since it may not be the phone last used.
        guard FileManager.default.fileExists(atPath: "\(state)/devices") else { return (fallback, nil) }
        return (
            fallback,
            "\(LastPhone.file(in: state)): no record of the phone last used; the app starts on \(fallback.name)"
        )
    }

    /// Records the phone on screen in the state folder, for the next run to reopen on it.
    func recordPhoneOnScreen() {
        guard let state = options.stateDirectory else { return }
        let phone = LastPhone(name: device.name, appleId: appleId)
        _ = attempt("record the phone on screen") { try phone.write(in: state) }
    }
}
