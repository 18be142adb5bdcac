import Testing

@testable import BackendSim

/// The audit chain's row bytes are written field by field now; a ledger written before must still verify,
/// so they must be the bytes the joined form gave.
@Suite struct AuditChainBytesTests {
    private func joined(_ row: AuditChain.Row) -> [UInt8] {
        Array(
            [String(row.atMillis), row.actor, row.action, row.detail, row.subject ?? "-", row.state ?? "-"]
                .map { "\($0.utf8.count):\($0)" }.joined(separator: "|").utf8)
    }

    @Test func rowBytesAreTheJoinedFieldsByteForByte() {
        let texts = ["", "-", "a|b:c", "café ☕︎", "purchase:2000000000000001", String(repeating: "x", count: 300)]
        var rows: [AuditChain.Row] = []
        for (index, text) in texts.enumerated() {
            rows.append(
                AuditChain.Row(
                    atMillis: Int64(index) * -1_234_567, actor: text, action: "purchase.state", detail: text,
                    subject: index % 2 == 0 ? nil : text, state: index % 3 == 0 ? nil : text))
        }
        for row in rows {
            #expect(row.bytes == joined(row))
            let previous: [UInt8] = [1, 2, 3]
            var message = previous
            row.append(to: &message)
            #expect(message == previous + joined(row))
        }
    }
}
