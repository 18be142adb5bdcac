import Foundation
import Subscriptions
import Testing

@testable import Simulation

/// The phone keeps its receipt file's content in memory and skips writing what the file holds: what it
/// loads must always be what it last saved, and the file must hold it for the next launch.
@Suite struct DeviceReceiptFileTests {
    @Test func theReceiptLoadedIsTheOneLastSavedAndTheFileHoldsIt() throws {
        let directory = try TestSupport.temporaryDirectory()
        let phone = try DeviceFiles(directory: directory)
        #expect(phone.load() == nil)
        phone.save("first.receipt.sig")
        #expect(phone.load() == "first.receipt.sig")
        phone.save("second.receipt.sig")
        #expect(phone.load() == "second.receipt.sig")
        phone.save("second.receipt.sig")
        #expect(try DeviceFiles(directory: directory).load() == "second.receipt.sig")
        phone.save(nil)
        #expect(phone.load() == nil)
        #expect(!FileManager.default.fileExists(atPath: directory + "/receipt"))
        phone.save("third.receipt.sig")
        #expect(try DeviceFiles(directory: directory).load() == "third.receipt.sig")
    }

    /// A receipt that could not be written is not taken as written: the next save tries again.
    @Test func aFailedWriteIsReportedAndTriedAgain() throws {
        let directory = try TestSupport.temporaryDirectory()
        let phone = try DeviceFiles(directory: directory)
        var problems: [String] = []
        phone.onProblem = { problems.append($0) }
        try FileManager.default.createDirectory(atPath: directory + "/receipt", withIntermediateDirectories: true)
        phone.save("a.b.c")
        #expect(problems.count == 1)
        try FileManager.default.removeItem(atPath: directory + "/receipt")
        phone.save("a.b.c")
        #expect(problems.count == 1)
        #expect(try DeviceFiles(directory: directory).load() == "a.b.c")
    }

    /// The payments whose receipts wait for an answer outlive the app: the next launch tells how each ended.
    @Test func thePaymentsWaitingForAnAnswerAreKeptForTheNextLaunch() throws {
        let directory = try TestSupport.temporaryDirectory()
        let phone = try DeviceFiles(directory: directory)
        #expect(phone.unansweredPayments.isEmpty)
        let paid = StoreTransaction(
            paymentNumber: 3, transactionIdentifier: "2000000000000001", productIdentifier: "monthly",
            state: .purchased, originalTransactionIdentifier: "2000000000000001")
        phone.unansweredPayments = [UnansweredPayment(paid, freshCharge: true)]
        let next = try DeviceFiles(directory: directory).unansweredPayments
        #expect(next.map(\.transactionId) == ["2000000000000001"])
        #expect(next.first?.freshCharge == true)
        phone.unansweredPayments = []
        #expect(!FileManager.default.fileExists(atPath: directory + "/payments-unanswered.json"))
    }
}
