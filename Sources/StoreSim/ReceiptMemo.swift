import Signing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the store remembers so a receipt's cost hardly grows with the history it lists: each Apple ID's
/// last listed entries with their canonical JSON (a receipt's payload is those bytes joined, so only a new
/// or changed transaction is built and encoded again), and the last receipts it issued (one presented byte
/// for byte as issued is its payload: the store signed exactly those bytes).
final class ReceiptMemo {
    /// Receipts kept: a receipt is checked soon after it is issued, and each may hold a long history.
    static let issuedKept = 4

    /// An Apple ID's entries as its last receipt listed them, their JSON joined by commas, where each one's
    /// ends, and their original transaction ids, each once in the order they first appear, and where.
    /// `revision` changes whenever the list does.
    private final class Listing {
        var entries: [ReceiptPayload.InAppPurchase] = []
        var json: [UInt8] = []
        var ends: [Int] = []
        var originals: [String] = []
        var originalStarts: [String: Int] = [:]
        var revision = 0
        /// Bytes of `json` as the last receipt sealed them, and what sealed it: the list leads the payload,
        /// so the receipt's encoding and hash are carried on from there.
        var sealedJSON = 0
        let sealer = EnvelopeSealer()
    }

    private var listings: [String: Listing] = [:]
    /// Each receipt issued with its payload but the list, whose Apple ID and revision of it say where to find
    /// the list: a receipt's payload shares its entries with the listing instead of holding a copy of them,
    /// so the next receipt changes the list in place (copying and freeing a 9,773-entry list per receipt
    /// was a sixth of a step). A receipt whose list changed since is opened the slow way.
    private var issued: [(receipt: String, shell: ReceiptPayload, appleId: String, revision: Int)] = []

    /// The payload's JSON: `inApp` first, its entries and then the other keys as `ReceiptCodec.canonicalJSON`
    /// writes them (sorted), so what changes from one receipt to the next (the nonce, the date, the newest
    /// entries) comes last. Any JSON reader reads the same payload.
    func json(of payload: ReceiptPayload, appleId: String = "") throws -> [UInt8] {
        let listing = try list(appleId, payload.inApp[...], from: 0)
        return try Self.json(shell: Self.shell(of: payload), listing: listing, payload: payload).bytes
    }

    static let listOpening = Array(#"{"inApp":["#.utf8)
    static let emptyList = Array(#","inApp":[]}"#.utf8)

    /// The bytes, and whether the list leads them (else they are the whole payload's canonical JSON).
    private static func json(shell: ReceiptPayload, listing: Listing, payload: @autoclosure () -> ReceiptPayload)
        throws -> (bytes: [UInt8], listLeads: Bool)
    {
        // Keys are sorted and `inApp` sorts last, so the shell ends with its empty list.
        // Written by hand as `JSONEncoder` writes it (`CanonicalJSONTests`): the encoder was a twentieth
        // of a validated purchase, with the entry's below.
        let keys = shell.canonicalJSON
        guard keys.first == UInt8(ascii: "{"), keys.count > emptyList.count + 1,
            keys.suffix(emptyList.count).elementsEqual(emptyList)
        else { return (try ReceiptCodec.canonicalBytes(payload()), false) }
        var bytes = listOpening
        bytes.reserveCapacity(listOpening.count + listing.json.count + 2 + keys.count)
        bytes += listing.json
        bytes += "],".utf8
        bytes += keys[1..<(keys.count - emptyList.count)]
        bytes.append(UInt8(ascii: "}"))
        return (bytes, true)
    }

    private static func shell(of payload: ReceiptPayload) -> ReceiptPayload {
        ReceiptPayload(
            bundleId: payload.bundleId, environment: payload.environment,
            deviceVerification: payload.deviceVerification, deviceVerificationNonce: payload.deviceVerificationNonce,
            creationDate: payload.creationDate, inApp: [])
    }

    /// `appleId`'s listing made to hold `purchases` after its first `from` entries, which are known unchanged:
    /// the rest are compared and only what follows the first difference is joined again.
    private func list(_ appleId: String, _ purchases: ArraySlice<ReceiptPayload.InAppPurchase>, from kept: Int) throws
        -> Listing
    {
        let listing = listings[appleId] ?? Listing()
        listings[appleId] = listing
        var same = min(kept, listing.entries.count)
        var index = purchases.startIndex
        while same < listing.entries.count, index < purchases.endIndex, listing.entries[same] == purchases[index] {
            same += 1
            index += 1
        }
        guard same < listing.entries.count || index < purchases.endIndex else { return listing }
        listing.revision += 1
        listing.entries.removeSubrange(same...)
        listing.ends.removeSubrange(same...)
        listing.json.removeSubrange((listing.ends.last ?? 0)...)
        listing.sealedJSON = min(listing.sealedJSON, listing.json.count)
        while let last = listing.originals.last, listing.originalStarts[last, default: 0] >= same {
            listing.originalStarts[last] = nil
            listing.originals.removeLast()
        }
        for purchase in purchases[index...] {
            if listing.originalStarts[purchase.originalTransactionId] == nil {
                listing.originalStarts[purchase.originalTransactionId] = listing.entries.count
                listing.originals.append(purchase.originalTransactionId)
            }
            if !listing.entries.isEmpty { listing.json.append(UInt8(ascii: ",")) }
            listing.json += try entry(purchase)
            listing.entries.append(purchase)
            listing.ends.append(listing.json.count)
        }
        return listing
    }

    /// Each transaction's entry as last encoded: a list changed in the middle (a refund) joins the entries
    /// after the change again, and they have not changed.
    private var encoded: [String: (purchase: ReceiptPayload.InAppPurchase, json: [UInt8])] = [:]

    private func entry(_ purchase: ReceiptPayload.InAppPurchase) throws -> [UInt8] {
        if let kept = encoded[purchase.transactionId], kept.purchase == purchase { return kept.json }
        let json = purchase.canonicalJSON
        encoded[purchase.transactionId] = (purchase, json)
        return json
    }

    /// A receipt of `payload`: `seal` signs its canonical JSON; the receipt is remembered with its payload.
    func issue(_ payload: ReceiptPayload, appleId: String = "", sealing seal: @escaping ([UInt8]) -> String) throws
        -> String
    {
        try issue(shell: Self.shell(of: payload), appleId: appleId, sealing: { bytes, _, _ in seal(bytes) }) {
            try list(appleId, payload.inApp[...], from: 0)
        }
    }

    /// A receipt for `appleId` listing `purchases`, of which the first `unchanged` are known to be as
    /// this Apple ID's last receipt listed them (the store's ledger counts what it changed since): only
    /// the rest are made into entries (`makeEntry`) and compared.
    func issue<Record>(
        shell: ReceiptPayload, appleId: String, purchases: [Record], unchanged: Int,
        makeEntry: (Record) -> ReceiptPayload.InAppPurchase, sealing seal: @escaping ([UInt8]) -> String
    ) throws -> String {
        try issue(
            shell: shell, appleId: appleId, purchases: purchases, unchanged: unchanged, makeEntry: makeEntry,
            seal: { bytes, _, _ in seal(bytes) })
    }

    /// The same, sealed with `key` by the Apple ID's `EnvelopeSealer`, which carries on from its last receipt.
    func issue<Record>(
        shell: ReceiptPayload, appleId: String, purchases: [Record], unchanged: Int,
        makeEntry: (Record) -> ReceiptPayload.InAppPurchase, key: SigningKey
    ) throws -> String {
        try issue(
            shell: shell, appleId: appleId, purchases: purchases, unchanged: unchanged, makeEntry: makeEntry,
            seal: { $2.seal($0, unchanged: $1, with: key) })
    }

    private func issue<Record>(
        shell: ReceiptPayload, appleId: String, purchases: [Record], unchanged: Int,
        makeEntry: (Record) -> ReceiptPayload.InAppPurchase, seal: @escaping Seal
    ) throws -> String {
        try issue(shell: shell, appleId: appleId, sealing: seal) {
            let kept = min(unchanged, purchases.count, listings[appleId]?.entries.count ?? 0)
            return try list(appleId, purchases[kept...].map(makeEntry)[...], from: kept)
        }
    }

    /// Seals a payload's bytes, of which the first so many are those this Apple ID's sealer sealed last.
    typealias Seal = ([UInt8], Int, EnvelopeSealer) -> String

    private func issue(
        shell: ReceiptPayload, appleId: String, sealing seal: Seal, listing: () throws -> Listing
    ) throws -> String {
        let listing = try listing()
        let (bytes, listLeads) = try Self.json(shell: shell, listing: listing, payload: Self.payload(shell, listing))
        let receipt = seal(bytes, listLeads ? Self.listOpening.count + listing.sealedJSON : 0, listing.sealer)
        listing.sealedJSON = listLeads ? listing.json.count : 0
        if issued.count == Self.issuedKept { issued.removeFirst() }
        issued.append((receipt, shell, appleId, listing.revision))
        return receipt
    }

    private static func payload(_ shell: ReceiptPayload, _ listing: Listing) -> ReceiptPayload {
        ReceiptPayload(
            bundleId: shell.bundleId, environment: shell.environment, deviceVerification: shell.deviceVerification,
            deviceVerificationNonce: shell.deviceVerificationNonce, creationDate: shell.creationDate,
            inApp: listing.entries)
    }

    /// The payload of a receipt this store issued, and its subscriptions (`originals(of:)`), when
    /// `receipt` is one of the last it issued, unchanged, and its Apple ID's list is still the one it lists.
    func opened(_ receipt: String) -> (payload: ReceiptPayload, originals: [String])? {
        guard let entry = issued.last(where: { $0.receipt == receipt }),
            let listing = listings[entry.appleId], listing.revision == entry.revision
        else { return nil }
        return (Self.payload(entry.shell, listing), listing.originals)
    }

    /// The receipt issued whose UTF-8 is `bytes`, when it is one of the last issued: the string itself, so a
    /// server reading it from a request's body makes no copy of its megabytes, and `opened` finds it at once.
    func issued(matching bytes: UnsafeRawBufferPointer) -> String? {
        issued.last { entry in
            entry.receipt.utf8.count == bytes.count
                && entry.receipt.utf8.withContiguousStorageIfAvailable {
                    guard let mine = $0.baseAddress, let theirs = bytes.baseAddress else { return bytes.isEmpty }
                    return memcmp(mine, theirs, bytes.count) == 0
                } == true
        }?.receipt
    }

    /// The original transaction ids of a payload's purchases, each once, in the order they first appear.
    static func originals(of payload: ReceiptPayload) -> [String] {
        var seen: Set<String> = []
        return payload.inApp.map(\.originalTransactionId).filter { seen.insert($0).inserted }
    }
}
