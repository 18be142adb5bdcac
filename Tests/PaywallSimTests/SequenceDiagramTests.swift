import Foundation
import Testing

/// `play --markdown`: each scenario's messages as a Mermaid sequence diagram, read by its line grammar.
@Suite struct SequenceDiagramTests {
    @Test func aPurchaseIsDrawnBetweenReaderAppAppStoreAndBackend() throws {
        let scenario = "\(TestSupport.packageRoot)/scenarios/purchase.scenario"
        let result = try TestSupport.runBinary(["play", "--markdown", scenario])
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
        let blocks = result.stdout.components(separatedBy: "```mermaid\n").dropFirst()
        #expect(blocks.count == 1)
        let diagram = try #require(blocks.first?.components(separatedBy: "\n```").first)
        let lines = diagram.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.first == "sequenceDiagram")
        let participants = ["Reader", "App", "AppStore", "Backend"]
        var arrows: [String] = []
        for line in lines.dropFirst() {
            if line.hasPrefix("participant ") {
                #expect(participants.contains(String(line.dropFirst(12).split(separator: " ")[0])))
            } else if line.hasPrefix("Note over ") {
                let over = line.dropFirst(10).prefix { $0 != ":" }.split(separator: ",").map(String.init)
                #expect(over.allSatisfy(participants.contains), "\(line)")
            } else {
                // FROM->>TO: text or FROM-->>TO: text, between declared participants, no `;` to end it early.
                let parts = line.split(separator: ":", maxSplits: 1)
                let ends = parts[0].components(separatedBy: parts[0].contains("-->>") ? "-->>" : "->>")
                #expect(ends.count == 2 && ends.allSatisfy(participants.contains), "\(line)")
                #expect(parts.count == 2 && !parts[1].contains(";"), "\(line)")
                arrows.append(line)
            }
        }
        for expected in [
            "Reader->>App: select", "App->>AppStore: products request", "AppStore-->>App: products response",
            "Reader->>AppStore: payment sheet: confirmed", "AppStore-->>App: purchased",
            "App->>Backend: POST /v1/receipts",
            "Backend-->>App: 200 POST /v1/receipts", "AppStore->>Backend: notification SUBSCRIBED",
        ] {
            #expect(arrows.contains { $0.hasPrefix(expected) }, "no \(expected)")
        }
    }
}
