/// Sixteen bytes written as a lowercase UUID (`8-4-4-4-12` hex digits), as Apple writes nonces and
/// appAccountTokens. Written as bytes into one String: mapping each byte to a String and joining them
/// built about forty Strings, a twentieth of a validated purchase.
public enum UUIDText {
    public static func lowercase(_ bytes: [UInt8]) -> String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 36) { output in
            digits.withUTF8Buffer { digits in
                var count = 0
                for index in 0..<min(bytes.count, 16) {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        output[count] = UInt8(ascii: "-")
                        count += 1
                    }
                    output[count] = digits[Int(bytes[index] >> 4)]
                    output[count + 1] = digits[Int(bytes[index] & 0xF)]
                    count += 2
                }
                return count
            }
        }
    }
}
