import Database
import FoundationEssentials
import SimKernel

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
        case .badRequest(let code): JSONBody.response(400, ["error": code])
        case .unauthorized(let code): JSONBody.response(401, ["error": code])
        case .forbidden(let code): JSONBody.response(403, ["error": code])
        case .notFound: JSONBody.response(404, ["error": "not_found"])
        case .conflict(let code): JSONBody.response(409, ["error": code])
        case .unprocessable(let code): JSONBody.response(422, ["error": code])
        case .unavailable: JSONBody.response(500, ["error": "ledger_unavailable"])
        }
    }
}

/// JSON bodies with sorted keys, so the same answer is the same bytes.
enum JSONBody {
    static func response(_ status: Int, _ body: some Encodable) -> HTTPResponse {
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
            if case .unavailable(let cause) = error { timeline.log(.backend, "ledger failed: \(cause)") }
            return error.response
        } catch {
            timeline.log(.backend, "ledger failed: \(error)")
            return JSONBody.response(500, ["error": "ledger_unavailable"])
        }
    }
}
