extension String {
    /// `replacing(target, with: value)`, the same bytes, matched on UTF-8 where that is the same answer: the
    /// paywall's words and offer lines called Swift's generic `replacing` 12.9 M instructions of a 30-run fuzz.
    /// `replacing` compares characters, so a byte match counts only where it is whole characters: an ASCII
    /// `target` with ASCII (or nothing) on both sides (ASCII never joins ASCII but as CR LF, which a target
    /// neither starts with "\n" nor ends with "\r" cannot split). Anything else, or a target that is not such
    /// ASCII, is `replacing`'s own. Canonical equivalence finds nothing more: no other text is equal to an ASCII
    /// letter, digit or brace but itself.
    public func replacingPlainly(_ target: String, with value: String) -> String {
        let key = Array(target.utf8)
        guard let first = key.first, key.allSatisfy({ $0 < 0x80 }), key.first != 0x0A, key.last != 0x0D else {
            return replacing(target, with: value)
        }
        var text = self
        return text.withUTF8 { bytes -> String in
            var out: [UInt8] = []
            var index = 0
            var copied = 0
            while index + key.count <= bytes.count {
                guard bytes[index] == first,
                    UnsafeBufferPointer(rebasing: bytes[index..<(index + key.count)]).elementsEqual(key)
                else {
                    index += 1
                    continue
                }
                let end = index + key.count
                if index > 0 && bytes[index - 1] >= 0x80 || end < bytes.count && bytes[end] >= 0x80 {
                    return replacing(target, with: value)  // a match that may not be whole characters
                }
                if out.isEmpty { out.reserveCapacity(bytes.count + value.utf8.count) }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
                out.append(contentsOf: value.utf8)
                index = end
                copied = end
            }
            if copied == 0 { return self }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
            return String(decoding: out, as: UTF8.self)
        }
    }
}
