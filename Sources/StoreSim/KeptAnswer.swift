import Database

/// One read's answer kept with what it was asked and the store file's version then (`ownDataVersion`):
/// the invariant monitor and a paywall's products ask the same of the store again and again with nothing
/// written between. The store's file is this process's alone (one run owns a folder), so an unchanged
/// version means a read would answer the same; inside a transaction (no version) nothing is kept.
struct KeptAnswer<Question: Equatable, Answer> {
    private var kept: (question: Question, version: UInt32, answer: Answer)?

    mutating func answer(
        _ question: Question, in database: Database, read: () throws(DatabaseError) -> Answer
    ) throws(DatabaseError) -> Answer {
        let version = database.ownDataVersion()
        if let kept, kept.question == question, kept.version == version { return kept.answer }
        let answer = try read()
        kept = version.map { (question, $0, answer) }
        return answer
    }
}
