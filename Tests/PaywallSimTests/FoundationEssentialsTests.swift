import Foundation
import SimKernel
import Testing

@testable import StoreSim
@testable import TerminalUI

/// What the package took from Foundation, now written without it, against Foundation itself: the same text.
@Suite struct FoundationEssentialsTests {
    @Test func anASCIITerminalFoldsEveryLetterAsFoundationFoldedIt() {
        let ranges: [ClosedRange<UInt32>] = [
            0x80...0x24F, 0x300...0x52F, 0x1E00...0x1FFF, 0x2000...0x2BFF, 0x3000...0x30FF, 0xFE00...0xFFEF,
        ]
        for value in ranges.joined() {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for text in [String(Character(scalar)), "e" + String(Character(scalar))] {
                let folded = text.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
                #expect(AsciiFallback.folded(text) == (folded.utf8.count == 1 ? folded : nil), "U+\(value)")
            }
        }
    }

    @Test func trimmingAndPaddingReadAsNSStringsDid() {
        for text in ["  a b \t", "\n a\u{2028}", "\u{A0}x\u{3000}", "", "  ", "é\u{301} ", "\t\r\n"] {
            #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
            #expect(
                text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines),
                "\(text.debugDescription)")
        }
        for (text, length) in [("apps", 10), ("a-long-name", 4), ("", 3)] {
            #expect(text.padded(toLength: length) == text.padding(toLength: length, withPad: " ", startingAt: 0))
        }
    }

    @Test func numbersArePrintedAsStringFormatPrintedThem() {
        for value in [0, 0.5, 1.005, 2.675, 1234.5678, -3.25, 1e-7, 99_999.995] {
            for format in ["%.0f", "%.1f", "%.2f", "%.3f", "%.6f", "%.2f ms", "%.0f µs", "%.2f×"] {
                #expect(String(printf: format, value) == String(format: format, value))
            }
        }
        // Longer than printf's first buffer of 256 bytes: written again into one of the size it asked for.
        for width in [255, 256, 300] {
            #expect(String(printf: "%\(width).2f", 2.5) == String(format: "%\(width).2f", 2.5))
        }
    }

    @Test func aFileErrorIsDescribedAsFoundationDescribedIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("essentials-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for path in [folder.path + "/missing/x.txt", folder.path] {
            do {
                try "x".write(toFile: path, atomically: true, encoding: .utf8)
                Issue.record("\(path) was written")
            } catch {
                #expect(error.failureDescription == error.localizedDescription)
            }
        }
    }

    @Test func aRefundIsRoundedAsNSDecimalRoundRoundedIt() {
        for text in ["0.125", "0.135", "1.005", "2.675", "4.994999", "4.995", "0.004", "12.3456789", "7"] {
            var value = Decimal(string: text)!
            var rounded = Decimal()
            NSDecimalRound(&rounded, &value, 2, .plain)
            #expect(Decimal(string: text)!.roundedPlain(places: 2) == rounded, "\(text)")
        }
    }
}
