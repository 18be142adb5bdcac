import BackendSim

/// An Apple ID a scenario names (`apple-id`, `family add`, `family remove`, `expect charges N APPLE_ID`) is an email
/// address, as Apple's are: `family add notanemail` made a family member of a typo, on a phone of its own, without a
/// word (session 38). The backend's own rule for an email decides.
public enum AppleIdText {
    /// Why `text` is no Apple ID, nil when it is one.
    public static func problem(_ text: String) -> String? {
        guard let problem = Backend.emailProblem(text) else { return nil }
        return "\(problem), and an Apple ID is one, such as kid@icloud.test"
    }
}
