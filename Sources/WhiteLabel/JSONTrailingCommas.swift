import FoundationEssentials

/// The first comma a JSON text puts before a closing `]` or `}`. Foundation's decoder takes `[1, 2,]` (its json5
/// leniency), so an app config or theme with one loaded, and the same file broke in any strict reader the owner
/// also feeds it (session 35). The text is JSON already (the decoder took it), so this only walks it, strings skipped.
enum JSONTrailingCommas {
    /// The offset of the first trailing comma, or nil.
    static func first(in bytes: [UInt8]) -> Int? {
        var index = 0
        var comma: Int?
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                comma = nil
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
            case UInt8(ascii: ","): comma = index
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if let comma { return comma }
            case 0x20, 0x0A, 0x0D, 0x09: break
            default: comma = nil
            }
            index += 1
        }
        return nil
    }

    /// A `ConfigError` at the comma's line and column.
    static func error(in data: Data, file: String) -> ConfigError? {
        guard let offset = first(in: Array(data)) else { return nil }
        return ConfigError(
            file: file, location: TextFile.location(of: offset, in: data),
            message: "is not valid JSON: a comma before a closing bracket or brace (a trailing comma): remove it")
    }
}
