import Foundation
import SimKernel

/// Carries HTTP-shaped requests to the backend: in process for the simulator, over HTTP in a real app.
public protocol BackendTransport: AnyObject {
    func send(_ request: HTTPRequest, completion: @escaping (HTTPResponse) -> Void)
}

/// A backend answer the app could not use, in the words the coordinator maps to what the reader sees.
public enum BackendFailure: Error, Equatable, Sendable {
    /// 401: the token was refused.
    case unauthorized(code: String)
    /// 4xx with the server's code, e.g. `nothing_to_validate`, `level_required`.
    case refused(status: Int, code: String)
    /// 5xx, a timeout, or a body that could not be read.
    case unavailable
}

/// What the backend says after a receipt or a reload: who the reader is, with which levels.
public struct AccessAnswer: Equatable, Sendable {
    public let identityId: String
    public let kind: String
    /// A new token, when the backend issued one (an anonymous identity just created).
    public let token: String?
    public let levels: [AccessLevel]
}

/// The app's wrapper around the backend's HTTP contract (docs/BACKEND-API.md).
public final class BackendClient {
    private let transport: BackendTransport

    public init(transport: BackendTransport) {
        self.transport = transport
    }

    /// Sends the receipt with the reader's token (none before an anonymous identity exists).
    public func validateReceipt(
        _ receipt: String, token: String?, completion: @escaping (Result<AccessAnswer, BackendFailure>) -> Void
    ) {
        let body = (try? JSONEncoder().encode(["receipt": receipt])).map(Array.init) ?? []
        send("POST", "/v1/receipts", token: token, body: body) { result in
            completion(result.flatMap(Self.accessAnswer))
        }
    }

    /// The full version of a piece of content, fetched with the reader's identity.
    public func fullContent(
        _ contentId: String, token: String?, completion: @escaping (Result<String, BackendFailure>) -> Void
    ) {
        send("GET", "/v1/content/\(contentId)", token: token, body: []) { result in
            completion(
                result.flatMap { bytes in
                    struct Content: Decodable { let body: String }
                    guard let content = try? JSONDecoder().decode(Content.self, from: Data(bytes)) else {
                        return .failure(.unavailable)
                    }
                    return .success(content.body)
                })
        }
    }

    private func send(
        _ method: String, _ path: String, token: String?, body: [UInt8],
        completion: @escaping (Result<[UInt8], BackendFailure>) -> Void
    ) {
        var headers = ["Accept": "application/json"]
        if !body.isEmpty { headers["Content-Type"] = "application/json" }
        if let token { headers["Authorization"] = "Bearer \(token)" }
        transport.send(HTTPRequest(method: method, path: path, headers: headers, body: body)) { response in
            if response.isSuccess { return completion(.success(response.body)) }
            let code = (try? JSONDecoder().decode([String: String].self, from: Data(response.body)))?["error"] ?? ""
            switch response.status {
            case 401: completion(.failure(.unauthorized(code: code)))
            case 400..<500: completion(.failure(.refused(status: response.status, code: code)))
            default: completion(.failure(.unavailable))
            }
        }
    }

    private static func accessAnswer(_ bytes: [UInt8]) -> Result<AccessAnswer, BackendFailure> {
        struct Body: Decodable {
            struct Identity: Decodable {
                let id: String
                let kind: String
                let token: String?
            }
            let identity: Identity
            let levels: [AccessLevel]
        }
        guard let body = try? JSONDecoder().decode(Body.self, from: Data(bytes)) else { return .failure(.unavailable) }
        return .success(
            AccessAnswer(
                identityId: body.identity.id, kind: body.identity.kind, token: body.identity.token, levels: body.levels)
        )
    }
}
