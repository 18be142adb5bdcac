import Testing

@testable import Database

/// Prepared statements are kept by their SQL's length and last bytes (`StatementKey`): a text is answered by its own
/// statement, never by one kept for another that hashes alike or that Swift takes for equal.
@Suite struct StatementKeyTests {
    @Test func textsAlikeAtTheEndAnswerTheirOwnRows() throws {
        let database = try Database(path: nil)
        let tail = " AS answer -- the same last thirty-two bytes"
        #expect(try database.query("SELECT 1\(tail)") == [[.integer(1)]])
        #expect(try database.query("SELECT 2\(tail)") == [[.integer(2)]])
        #expect(try database.query("SELECT 1\(tail)") == [[.integer(1)]])
    }

    /// "é" written as one scalar and as "e" with a combining accent: equal as Swift strings, different bytes to
    /// SQLite, which answers the bytes it was given.
    @Test func canonicallyEqualTextsKeepTheirOwnBytes() throws {
        let database = try Database(path: nil)
        let composed = try database.query("SELECT '\u{E9}'").first?.first?.string
        let decomposed = try database.query("SELECT 'e\u{301}'").first?.first?.string
        #expect(composed.map { Array($0.utf8) } == [0xC3, 0xA9])
        #expect(decomposed.map { Array($0.utf8) } == [0x65, 0xCC, 0x81])
    }
}
