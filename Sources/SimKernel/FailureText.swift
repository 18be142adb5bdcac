import FoundationEssentials

extension Error {
    /// What Foundation's `localizedDescription` said of this error on Linux, where the package's messages
    /// quote it ("could not write FILE: …"): a file error's reason by its CocoaError code; another error as
    /// Swift describes it.
    public var failureDescription: String {
        guard let cocoa = self as? CocoaError else { return "\(self)" }
        let reason =
            Self.reasons[cocoa.code.rawValue].map { $0 } ?? "(NSCocoaErrorDomain error \(cocoa.code.rawValue).)"
        return "The operation could not be completed. \(reason)"
    }

    private static var reasons: [Int: String] {
        [
            4: "The file doesn’t exist.", 255: "The file couldn’t be locked.", 257: "You don’t have permission.",
            258: "The file name is invalid.", 259: "The file isn’t in the correct format.",
            260: "The file doesn’t exist.", 261: "The specified text encoding isn’t applicable.",
            262: "The specified URL type isn’t supported.", 263: "The item is too large.",
            264: "The text encoding of the contents couldn’t be determined.", 513: "You don’t have permission.",
            514: "The file name is invalid.", 516: "A file with the same name already exists.",
            517: "The specified text encoding isn’t applicable.", 518: "The specified URL type isn’t supported.",
            640: "There isn’t enough space.", 642: "The volume is read only.",
        ]
    }
}
