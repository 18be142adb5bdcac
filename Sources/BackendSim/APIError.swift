import Database
import FoundationEssentials
import SimKernel
import StoreSim

/// A refusal with its HTTP status and machine-readable code, as docs/BACKEND-API.md lists them.
enum APIError: Error {
    case badRequest(String)
    case unauthorized(String)
    case forbidden(String)
    case notFound
    case conflict(String)
    case unprocessable(String)
    /// The ledger failed: a 500, logged, never read as a refusal about the caller.
    case unavailable(DatabaseError)

    var response: HTTPResponse {
        switch self {
        case .badRequest(let code): JSONBody.response(400, ErrorBody(error: code))
        case .unauthorized(let code): JSONBody.response(401, ErrorBody(error: code))
        case .forbidden(let code): JSONBody.response(403, ErrorBody(error: code))
        case .notFound: JSONBody.response(404, ErrorBody(error: "not_found"))
        case .conflict(let code): JSONBody.response(409, ErrorBody(error: code))
        case .unprocessable(let code): JSONBody.response(422, ErrorBody(error: code))
        case .unavailable: JSONBody.response(500, ErrorBody(error: "ledger_unavailable"))
        }
    }
}

/// A refusal's body: `{"error": code}`.
struct ErrorBody: HandWrittenAnswer {
    let error: String

    func write(to json: inout CanonicalJSONWriter) {
        json.object { $0.string("error", error) }
    }

    var texts: [String?] { [error] }
}

/// An answer the backend writes by hand, byte for byte as `JSONEncoder` with `.sortedKeys` writes it, when
/// all its text is ASCII: Foundation's encoder was a twentieth of a validated purchase and of a fuzz step.
/// Text beyond ASCII goes to the encoder. `AccessBodyJSONTests` compares the two.
protocol HandWrittenAnswer: Encodable {
    /// The answer as one object, keys sorted, nil members left out (`CanonicalJSONWriter`).
    func write(to json: inout CanonicalJSONWriter)
    /// Every string the answer holds.
    var texts: [String?] { get }
}

extension HandWrittenAnswer {
    var isASCII: Bool { texts.allSatisfy { $0?.utf8.allSatisfy { $0 < 0x80 } ?? true } }

    var json: [UInt8] {
        var writer = CanonicalJSONWriter(capacity: 512)
        write(to: &writer)
        return writer.bytes
    }
}

/// JSON bodies with sorted keys, so the same answer is the same bytes.
enum JSONBody {
    static func response(_ status: Int, _ body: some HandWrittenAnswer) -> HTTPResponse {
        guard body.isASCII else { return response(status, encoding: body) }
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body.json)
    }

    static func response(_ status: Int, _ body: some Encodable) -> HTTPResponse {
        response(status, encoding: body)
    }

    private static func response(_ status: Int, encoding body: some Encodable) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return HTTPResponse(
                status: status, headers: ["Content-Type": "application/json"], body: Array(try encoder.encode(body)))
        } catch {
            // Never an empty 200: an answer that cannot be written is the server failing, as the app sees it.
            return HTTPResponse(
                status: 500, headers: ["Content-Type": "application/json"],
                body: Array(#"{"error":"response_unwritable"}"#.utf8))
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, from request: HTTPRequest) throws(APIError) -> T {
        if let quick = type as? any QuickRequestBody.Type, let members = QuickJSON.object(request.body) {
            var fields = QuickFields(members)
            guard let body = quick.init(quick: &fields), !fields.failed, let value = body as? T else {
                throw .badRequest("body_malformed")
            }
            return value
        }
        guard let value = try? JSONDecoder().decode(type, from: Data(request.body)) else {
            throw .badRequest("body_malformed")
        }
        return value
    }
}

extension Backend {
    /// Runs an endpoint: a refusal it throws becomes its status and code; anything else failing
    /// (the ledger) is a 500, so no endpoint ever throws past the router.
    func answering(_ endpoint: () throws -> HTTPResponse) -> HTTPResponse {
        do {
            return try endpoint()
        } catch let error as APIError {
            if case .unavailable(let cause) = error {
                timeline.log(.backend, "ledger failed: \(cause)")
                if storageFailure == nil { storageFailure = cause.storage }
            }
            return error.response
        } catch {
            timeline.log(.backend, "ledger failed: \(error)")
            if storageFailure == nil { storageFailure = (error as? DatabaseError)?.storage }
            return JSONBody.response(500, ErrorBody(error: "ledger_unavailable"))
        }
    }
}
