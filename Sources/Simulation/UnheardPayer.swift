import BackendSim
import Database
import StoreSim

/// Who paid for a purchase's newest purchase (a resubscription, a switch, an offer bought) where the server has not
/// heard of it yet, or for a purchase it never heard of: the next report of it, a restore's included, moves the
/// purchase to them, or gives it to them (seed 003), before anything is decided on it, so what the server says of its
/// owner and its moves is said as after that. Read from Apple's records and the ledger, not from the backend's own
/// decision (session 31: the inspect left that move uncounted).
struct UnheardPayer {
    let originalTransactionId: String
    /// The customer the newest purchase's appAccountToken names.
    let payer: String
    /// A move from an owner (one more toward the limit), not a claim of a purchase nobody held.
    let moves: Bool

    /// The Apple ID's purchases, among `originals`, that the next report moves to who paid.
    static func all(_ world: World, among originals: Set<String>) throws(DatabaseError) -> [UnheardPayer] {
        let ledger = world.backend.ledger
        var newest: [String: TransactionRecord] = [:]
        for record in world.store.transactions(appleId: world.appleId)
        where originals.contains(record.originalTransactionIdentifier) && record.transactionReason != "RENEWAL"
            && !record.isFamilyShared
        {
            let id = record.originalTransactionIdentifier
            if newest[id].map({ $0.purchaseDate < record.purchaseDate }) ?? true { newest[id] = record }
        }
        var unheard: [UnheardPayer] = []
        for (id, record) in newest.sorted(by: { $0.key < $1.key }) {
            guard let token = record.appAccountToken, let payer = try world.backend.customer(namedBy: token) else {
                continue
            }
            // A purchase the server never heard of is its payer's as the server decides on it (its restore's inspect
            // enters it as the customer its token names): "belongs to someone else" of one another account paid for
            // on this Apple ID is true (long fuzz seed 1672, session 36: judged as owned by nobody).
            if let known = try ledger.purchase(id) {
                guard record.purchaseDate.milliseconds > (try ledger.ownerPurchaseMillis(id)), payer != known.ownerId
                else { continue }
                if let owner = known.ownerId, try ledger.identity(owner)?.kind == .account,
                    try ledger.identity(payer)?.kind == .anonymous
                {
                    continue  // An account's purchase never follows a guest's payment.
                }
                unheard.append(UnheardPayer(originalTransactionId: id, payer: payer, moves: known.ownerId != nil))
            } else {
                unheard.append(UnheardPayer(originalTransactionId: id, payer: payer, moves: false))
            }
        }
        return unheard
    }
}
