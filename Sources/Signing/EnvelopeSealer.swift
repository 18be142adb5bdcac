import CCrypto

/// Seals envelopes whose payloads begin as the last one did (an Apple ID's receipts: the list leads, and a
/// renewal appends), so the unchanged part is neither encoded nor hashed again: it keeps the last signing
/// input's bytes, and libcrypto's SHA-256 state (`EVP_MD_CTX_copy_ex`) every `stride` bytes of it. The
/// envelope is byte for byte `SignedEnvelope.seal`'s for the same payload and key (tested).
public final class EnvelopeSealer {
    /// Bytes of signing input between kept hash states.
    static let stride = 1 << 16

    /// The last signing input (`header.` and the payload's base64), valid up to `validCount`: the base64
    /// of the payload's whole groups of three bytes.
    private var signingInput: [UInt8] = []
    private var validCount = 0
    /// SHA-256 states after the first `offset` bytes of `signingInput`, offsets rising by `stride`.
    private var states: [(offset: Int, context: HashState)] = []

    public init() {}

    /// The envelope of `payload`, whose first `unchanged` bytes are those of the payload this sealer sealed
    /// last (0 when unknown).
    public func seal(_ payload: [UInt8], unchanged: Int, with key: SigningKey) -> String {
        let header = Array(key.header.utf8) + [UInt8(ascii: ".")]
        var reused = 0
        if signingInput.starts(with: header) {
            let groups = min(unchanged, payload.count) / 3
            reused = min(validCount, header.count + groups * 4)
        }
        states.removeAll { $0.offset > reused }
        let signingCount = header.count + Base64URL.encodedCount(payload.count)
        if reused == 0 { signingInput = header }
        signingInput.removeSubrange(max(reused, header.count)...)
        reused = max(reused, header.count)
        // The payload's bytes from the first group whose characters are not kept.
        let start = (reused - header.count) / 4 * 3
        signingInput.append(contentsOf: repeatElement(0, count: signingCount - signingInput.count))
        signingInput.withUnsafeMutableBufferPointer { output in
            payload.withUnsafeBufferPointer { bytes in
                _ = Base64URL.write(
                    UnsafeBufferPointer(rebasing: bytes[start...]),
                    to: UnsafeMutableBufferPointer(rebasing: output[reused...]))
            }
        }
        validCount = header.count + payload.count / 3 * 4
        let digest = hash(from: states.last ?? (0, HashState()))
        let signature = key.sign(digest: digest)
        return String(unsafeUninitializedCapacity: signingCount + 1 + Base64URL.encodedCount(64)) { output in
            var count = output.initialize(from: signingInput).1
            output[count] = UInt8(ascii: ".")
            count += 1
            count += Base64URL.write(
                Array(signature.prefix(64)), to: UnsafeMutableBufferPointer(rebasing: output[count...]))
            return count
        }
    }

    /// SHA-256 of `signingInput`, carried on from `state`, keeping a state every `stride` bytes on the way.
    private func hash(from start: (offset: Int, context: HashState)) -> [UInt8] {
        let state = start.context.copy()
        var offset = start.offset
        signingInput.withUnsafeBufferPointer { input in
            while offset + Self.stride <= validCount {
                state.update(UnsafeBufferPointer(rebasing: input[offset..<offset + Self.stride]))
                offset += Self.stride
                states.append((offset, state.copy()))
            }
            state.update(UnsafeBufferPointer(rebasing: input[offset...]))
        }
        return state.finish()
    }
}

/// A SHA-256 computation under way in libcrypto, which copies it (`EVP_MD_CTX_copy_ex`) to go on twice.
final class HashState {
    private let context: OpaquePointer?

    init() {
        context = EVP_MD_CTX_new()
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    private init(copying other: OpaquePointer?) {
        context = EVP_MD_CTX_new()
        EVP_MD_CTX_copy_ex(context, other)
    }

    deinit { EVP_MD_CTX_free(context) }

    func copy() -> HashState { HashState(copying: context) }

    func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
    }

    func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 32
        EVP_DigestFinal_ex(context, &digest, &length)
        return digest
    }
}
