import SimKernel

/// Strings a body written around a JWS must carry as `JSONEncoder` would: twenty JWS-shaped ones (base64url
/// and dots, nothing the encoder escapes) of growing length, then every kind the encoder escapes or keeps.
enum JSONStringSamples {
    static func texts(seed: UInt64, stride: Int) -> [String] {
        var generator = SeededGenerator(seed: seed)
        let alphabet = Array("ABCxyz019-_.".utf8)
        let jws = (0..<20).map { length in
            String(decoding: (0..<length * stride).map { _ in alphabet[Int(generator.next() % 12)] }, as: UTF8.self)
        }
        return jws + [
            "", "a\"quote", "back\\slash", "sl/ash", "tab\there", "new\nline", "\u{1}", "\u{7F}", "é", "🙂",
            "eyJ.abc.de f", "<script>", "\u{2028}",
        ]
    }
}
