import Foundation
import SimKernel
import Testing

@testable import BackendSim
@testable import Subscriptions

/// The app writes a receipt's request body by hand and the backend reads it by finding the receipt's
/// bounds: both must be what `JSONEncoder` writes (sorted keys) and `JSONDecoder` reads, for any receipt.
@Suite struct ReceiptBodyTests {
    private static var receipts: [String] { JSONStringSamples.texts(seed: 16, stride: 37) }

    @Test(arguments: receipts)
    func theWrittenBodyIsJSONEncoders(_ receipt: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for confirm in [nil, true, false] as [Bool?] {
            let body = ReceiptBody(receipt: receipt, confirmMoveFromAccount: confirm)
            #expect(try body.json() == Array(encoder.encode(body)))
        }
    }

    @Test(arguments: receipts)
    func theBackendReadsWhatJSONDecoderReads(_ receipt: String) throws {
        for confirm in [nil, true, false] as [Bool?] {
            let bytes = ReceiptBody(receipt: receipt, confirmMoveFromAccount: confirm).json()
            let read = try Backend.ReceiptRequest.decode(from: Self.request(bytes))
            #expect(read.receipt == receipt)
            #expect(read.confirmMoveFromAccount == confirm)
        }
    }

    /// A body around a receipt the store issued is read without copying the receipt out: what it reads is
    /// what reading the body gives, and a body in any other form, or around other bytes, is read as before.
    @Test(arguments: receipts)
    func aReceiptTheStoreIssuedIsReadAsTheBodySaysIt(_ receipt: String) throws {
        let issued = { (bytes: UnsafeRawBufferPointer) in bytes.elementsEqual(receipt.utf8) ? receipt : nil }
        for confirm in [nil, true, false] as [Bool?] {
            let bytes = ReceiptBody(receipt: receipt, confirmMoveFromAccount: confirm).json()
            let read = try? Backend.ReceiptRequest.decode(from: Self.request(bytes), issued: issued)
            let expected = try? Backend.ReceiptRequest.decode(from: Self.request(bytes))
            #expect(read?.receipt == expected?.receipt)
            #expect(read?.confirmMoveFromAccount == expected?.confirmMoveFromAccount)
            for other in [Array(bytes.dropLast()), Array(" ".utf8) + bytes, bytes + Array(" ".utf8)] {
                let read = try? Backend.ReceiptRequest.decode(from: Self.request(other), issued: issued)
                let expected = try? JSONDecoder().decode(Backend.ReceiptRequest.self, from: Data(other))
                #expect(read?.receipt == expected?.receipt)
                #expect(read?.confirmMoveFromAccount == expected?.confirmMoveFromAccount)
            }
        }
    }

    /// Bodies that are not plain, or not a receipt request: refused or read exactly as `JSONDecoder` does.
    @Test(arguments: [
        #"{"receipt": "abc", "confirmMoveFromAccount": null}"#, #"{"receipt":"abc","extra":1}"#,
        #"{"receipt":"a\u0062c"}"#, #"{"receipt":5}"#, #"{"receipts":"x"}"#, #"{"receipt":"abc","receipt":"d"}"#,
        #"{"receipt":"abc","confirmMoveFromAccount":1}"#, #"{"receipt":"abc","confirmMoveFromAccount":"yes"}"#,
        #" {"confirmMoveFromAccount":true,"receipt":"x.y.z"} "#, "not json", "", #"{"receipt":"é"}"#,
    ])
    func anyOtherBodyIsJSONDecoders(_ text: String) {
        let expected = try? JSONDecoder().decode(Backend.ReceiptRequest.self, from: Data(text.utf8))
        let read = try? Backend.ReceiptRequest.decode(from: Self.request(Array(text.utf8)))
        #expect(read?.receipt == expected?.receipt)
        #expect(read?.confirmMoveFromAccount == expected?.confirmMoveFromAccount)
    }

    private static func request(_ body: [UInt8]) -> HTTPRequest {
        HTTPRequest(method: "POST", path: "/v1/receipts", headers: [:], body: body)
    }
}
