import Foundation
import Signing
import SimKernel
import Testing

@testable import BackendSim
@testable import StoreSim

/// A backend with something worth stealing, built the same way for every row of the matrix:
/// - phone-1 (Apple ID a) bought monthly and reported it without an account: `anon-000001` owns it;
/// - phone-3 (Apple ID b) bought monthly while signed in as ana@example.com: the account owns it;
/// - phone-5 (Apple ID c) bought monthly and has not reported it yet: a fresh receipt nobody owns;
/// - eve@example.com has an account and no purchase.
final class SecurityArena {
    let world: LedgerWorld
    let anonReceipt: String
    let anonToken: String
    let anonPurchase: String
    let accountReceipt: String
    let accountToken: String
    let accountId: String
    let freshReceipt: String
    let eveToken: String
    let eveId: String
    /// A key that is not the App Store's, and a token secret that is not the platform's.
    let strangerKey = SigningKey(seed: Digest.sha256(Array("not the app store".utf8)))!
    let bundleId = "com.paywallsim.dailynews"
    /// What an attacker who has read the source knows: the constants the source once held as keys.
    let sourceStoreKey = SigningKey(seed: Digest.sha256(Array("paywall-sim app store receipt key".utf8)))!
    static let sourceTokenSecret = Digest.sha256(Array("paywall-sim backend token key".utf8))
    /// The platform's own secret, for genuine tokens the tests need (a state folder's, never in the source).
    var platformSecret: [UInt8] { world.backend.keys.tokenSecret }
    private let keysDirectory: String

    struct Answer: CustomStringConvertible {
        let status: Int
        let body: [String: Any]
        /// `error` for a refusal, `result` for a notification's answer.
        var code: String? { body["error"] as? String ?? body["result"] as? String }
        var levels: [String]? { body["levels"] as? [String] }
        var description: String { "\(status) \(code ?? "-")" }
    }

    init() throws {
        // Keys as a state folder gets them: from the OS's randomness, when the folder is made.
        keysDirectory = try TestSupport.temporaryDirectory()
        world = try LedgerWorld(keys: try Keyring.folder(keysDirectory, legacy: false))
        anonReceipt = world.buy(on: "phone-1", appleId: "a@icloud.test")
        let reported = Self.send(world, "POST", "/v1/receipts", ["receipt": anonReceipt], device: "phone-1")
        anonToken = try #require((reported.body["identity"] as? [String: Any])?["token"] as? String)
        anonPurchase = try #require(ReceiptCodec.open(anonReceipt, with: world.store.verifyingKey)?.inApp.first)
            .originalTransactionId

        accountReceipt = world.buy(on: "phone-3", appleId: "b@icloud.test")
        let ana = Self.send(
            world, "POST", "/v1/accounts", ["email": "ana@example.com", "password": "correct horse"], device: "phone-3")
        let anaIdentity = try #require(ana.body["identity"] as? [String: Any])
        accountToken = try #require(anaIdentity["token"] as? String)
        accountId = try #require(anaIdentity["id"] as? String)
        let linked = Self.send(
            world, "POST", "/v1/receipts", ["receipt": accountReceipt], token: accountToken, device: "phone-3")
        #expect(linked.levels == ["premium"])

        freshReceipt = world.buy(on: "phone-5", appleId: "c@icloud.test")
        let eve = Self.send(
            world, "POST", "/v1/accounts", ["email": "eve@example.com", "password": "eve's password"], device: "phone-6"
        )
        eveToken = try #require((eve.body["identity"] as? [String: Any])?["token"] as? String)
        eveId = try #require((eve.body["identity"] as? [String: Any])?["id"] as? String)
    }

    deinit { try? FileManager.default.removeItem(atPath: keysDirectory) }

    @discardableResult
    func send(_ method: String, _ path: String, _ body: [String: Any], token: String? = nil, device: String? = nil)
        -> Answer
    {
        Self.send(world, method, path, body, token: token, device: device)
    }

    static func send(
        _ world: LedgerWorld, _ method: String, _ path: String, _ body: [String: Any], token: String? = nil,
        device: String? = nil
    ) -> Answer {
        var headers: [String: String] = [:]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        if let device { headers["X-Device-Id"] = device }
        let bytes = method == "GET" ? [] : Array(try! JSONSerialization.data(withJSONObject: body))
        let response = world.backend.handle(HTTPRequest(method: method, path: path, headers: headers, body: bytes))
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        return Answer(status: response.status, body: object)
    }

    // MARK: - Receipts, forged and tampered

    /// The genuine receipt's payload, signed again with a key that is not the App Store's.
    func forged(_ receipt: String) -> String {
        ReceiptCodec.seal(ReceiptCodec.open(receipt, with: world.store.verifyingKey)!, with: strangerKey)
    }

    /// The genuine receipt with its payload changed after signing (it now names the account's purchase).
    func tampered(_ receipt: String) -> String {
        let parts = receipt.split(separator: ".").map(String.init)
        var payload = ReceiptCodec.open(receipt, with: world.store.verifyingKey)!
        let stolen = ReceiptCodec.open(accountReceipt, with: world.store.verifyingKey)!.inApp
        payload = ReceiptPayload(
            bundleId: payload.bundleId, environment: payload.environment,
            deviceVerification: payload.deviceVerification, deviceVerificationNonce: payload.deviceVerificationNonce,
            creationDate: payload.creationDate, inApp: payload.inApp + stolen)
        let bytes = Array(try! ReceiptCodec.canonicalJSON.encode(payload))
        return parts[0] + "." + Base64URL.encode(bytes) + "." + parts[2]
    }

    /// A genuine receipt from the same App Store, for another app.
    func otherAppsReceipt() throws -> String {
        let other = try AppStore(
            store: try TestSupport.demoConfig().store, bundleId: "com.other.app", scheduler: world.scheduler,
            timeline: world.timeline, random: SeededGenerator(seed: 2), latency: .none, databasePath: nil,
            keys: world.store.keys)
        let box = ReceiptBox()
        let queue = other.paymentQueue(deviceId: "phone-5", appleId: "c@icloud.test", receipt: box)
        queue.startObserving { _ in }
        queue.add(productIdentifier: "com.dailynews.premium.monthly")
        world.scheduler.runUntilIdle()
        queue.answerSheet(confirm: true)
        world.scheduler.runUntilIdle()
        return try #require(box.receipt)
    }

    // MARK: - Tokens

    func token(
        secret: [UInt8]? = nil, audience: String? = nil, sub: String = "anon-000001",
        kind: IdentityRecord.Kind = .anonymous, issued: SimInstant? = nil, lifetime: SimDuration = .days(365)
    ) -> String {
        TokenAuthority(secret: secret ?? platformSecret, audience: audience ?? bundleId).issue(
            for: IdentityRecord(id: sub, kind: kind), now: issued ?? world.scheduler.now, lifetime: lifetime)
    }

    /// `alg: none`: the claims of a genuine token with no signature.
    var unsignedToken: String {
        let claims = anonToken.split(separator: ".")[1]
        return Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + claims + "."
    }

    /// A genuine token whose claims were changed to name the account, keeping the signature.
    var tokenWithTamperedClaims: String {
        let parts = anonToken.split(separator: ".").map(String.init)
        var claims = try! JSONSerialization.jsonObject(with: Data(Base64URL.decode(parts[1])!)) as! [String: Any]
        claims["sub"] = accountId
        claims["kind"] = "account"
        let bytes = Array(try! JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
        return parts[0] + "." + Base64URL.encode(bytes) + "." + parts[2]
    }

    // MARK: - Notifications

    /// A V2 notification about phone-1's purchase, signed by the App Store (or by `key`).
    func notification(
        _ type: NotificationType, uuid: String, signedAt: SimInstant, expires: SimInstant, revoked: Bool = false,
        bundle: String? = nil, key: SigningKey? = nil
    ) -> String {
        let transaction = TransactionInfo(
            transactionId: anonPurchase, originalTransactionId: anonPurchase,
            productId: "com.dailynews.premium.monthly", bundleId: bundle ?? bundleId, environment: .sandbox,
            purchaseDate: SimInstant.worldStart.milliseconds, originalPurchaseDate: SimInstant.worldStart.milliseconds,
            expiresDate: expires.milliseconds, revocationDate: revoked ? signedAt.milliseconds : nil,
            revocationReason: revoked ? 0 : nil, inAppOwnershipType: "PURCHASED", appAccountToken: nil,
            deviceId: "phone-1", signedDate: signedAt.milliseconds)
        let payload = NotificationPayload(
            notificationType: type, subtype: nil, notificationUUID: uuid, version: "2.0",
            signedDate: signedAt.milliseconds,
            data: NotificationData(
                bundleId: bundle ?? bundleId, environment: .sandbox,
                signedTransactionInfo: key.map { NotificationCodec.seal(transaction, with: $0) }
                    ?? world.store.sign(transaction),
                signedRenewalInfo: nil, status: 1))
        return key.map { NotificationCodec.seal(payload, with: $0) } ?? world.store.sign(payload)
    }

    @discardableResult
    func notify(_ signedPayload: String) -> Answer {
        send("POST", "/v1/notifications/apple", ["signedPayload": signedPayload])
    }
}

/// One row of the matrix: what was tried, what the contract (docs/BACKEND-API.md) answers.
struct SecurityCase: CustomTestStringConvertible, Sendable {
    let name: String
    let status: Int
    /// The `error` code of a refusal, or the `result` of a notification; nil for a plain 200.
    let code: String?
    /// The caller's levels in the answer, where the answer carries them and they matter.
    var levels: [String]? = nil
    /// A table the contract says records the attempt (a stale notification is kept, not applied).
    var recordedIn: String? = nil
    /// State reached before the snapshot (the first delivery of what is then replayed).
    var prepare: @Sendable (SecurityArena) throws -> Void = { _ in }
    let attempt: @Sendable (SecurityArena) throws -> SecurityArena.Answer

    var testDescription: String { name }
}

@Suite struct SecurityMatrixTests {
    static let cases: [SecurityCase] =
        receiptCases + tokenCases + restoreCases + replayCases + notificationCases + sourceReaderCases

    /// An attacker who has read the source: every key the source once held, and how it made refresh tokens.
    static let sourceReaderCases: [SecurityCase] = [
        SecurityCase(
            name: "a receipt signed with the App Store key the source held", status: 422, code: "receipt_invalid"
        ) {
            let payload = ReceiptCodec.open($0.freshReceipt, with: $0.world.store.verifyingKey)!
            return $0.send(
                "POST", "/v1/receipts", ["receipt": ReceiptCodec.seal(payload, with: $0.sourceStoreKey)],
                device: "phone-5")
        },
        SecurityCase(name: "a token signed with the token secret the source held", status: 401, code: "token_invalid") {
            let token = $0.token(secret: SecurityArena.sourceTokenSecret, sub: $0.accountId, kind: .account)
            return $0.send("POST", "/v1/receipts", ["receipt": $0.freshReceipt], token: token, device: "phone-5")
        },
        SecurityCase(name: "a refresh token made as the source made them", status: 401, code: "refresh_invalid") {
            arena in
            // HMAC under "refresh" of the account id, the issue time (every X-Server-Time) and a counter.
            let guesses = (0..<8).map { count in
                let seed = "\(arena.accountId):\(arena.world.scheduler.now.milliseconds):\(count)"
                return Base64URL.encode(Digest.hmacSHA256(key: Array("refresh".utf8), message: Array(seed.utf8)))
            }
            var last = arena.send("POST", "/v1/sessions/refresh", ["refreshToken": guesses[0]])
            for guess in guesses.dropFirst() where last.status == 401 {
                last = arena.send("POST", "/v1/sessions/refresh", ["refreshToken": guess])
            }
            return last
        },
        // The spoof: phone-1's receipt copied, and sent with the device header the receipt itself gives
        // away. It once named its device in plain text; now it has only SHA-384(nonce ‖ device id).
        SecurityCase(
            name: "a copied receipt sent with the device header read from it", status: 403,
            code: "restore_not_this_device"
        ) { arena in
            let payload = ReceiptCodec.open(arena.anonReceipt, with: arena.world.store.verifyingKey)!
            let json = String(decoding: Base64URL.decode(arena.anonReceipt.split(separator: ".")[1])!, as: UTF8.self)
            #expect(!json.contains("phone-1"))
            var last = arena.send("POST", "/v1/restores", ["receipt": arena.anonReceipt], token: arena.eveToken)
            for header in [payload.deviceVerificationNonce, payload.deviceVerification] where last.status == 403 {
                last = arena.send(
                    "POST", "/v1/restores", ["receipt": arena.anonReceipt], token: arena.eveToken, device: header)
            }
            return last
        },
        SecurityCase(
            name: "a notification signed with the App Store key the source held", status: 400, code: "signature_invalid"
        ) {
            $0.notify(
                $0.notification(
                    .refund, uuid: "source-key", signedAt: $0.world.scheduler.now,
                    expires: SimInstant.worldStart + .days(31), revoked: true, key: $0.sourceStoreKey))
        },
    ]

    static let receiptCases: [SecurityCase] = [
        SecurityCase(name: "a receipt signed with another key", status: 422, code: "receipt_invalid") {
            $0.send("POST", "/v1/receipts", ["receipt": $0.forged($0.freshReceipt)], device: "phone-5")
        },
        SecurityCase(name: "a receipt changed after signing", status: 422, code: "receipt_invalid") {
            $0.send("POST", "/v1/receipts", ["receipt": $0.tampered($0.freshReceipt)], device: "phone-5")
        },
        SecurityCase(name: "a forged receipt used for a restore", status: 422, code: "receipt_invalid") {
            $0.send("POST", "/v1/restores", ["receipt": $0.forged($0.freshReceipt)], device: "phone-5")
        },
        SecurityCase(name: "a tampered receipt used for a restore", status: 422, code: "receipt_invalid") {
            $0.send("POST", "/v1/restores", ["receipt": $0.tampered($0.freshReceipt)], device: "phone-5")
        },
        SecurityCase(name: "a genuine receipt of another app", status: 422, code: "receipt_other_app") {
            $0.send("POST", "/v1/receipts", ["receipt": try $0.otherAppsReceipt()], device: "phone-5")
        },
        SecurityCase(name: "something that is not a receipt", status: 422, code: "receipt_invalid") {
            $0.send("POST", "/v1/receipts", ["receipt": "aGVsbG8"], device: "phone-5")
        },
    ]

    /// Each token comes with the fresh receipt nobody owns: accepted, it would link that purchase.
    static let tokenCases: [SecurityCase] = [
        SecurityCase(name: "an expired token", status: 401, code: "token_expired") {
            let token = $0.token(issued: $0.world.scheduler.now, lifetime: .hours(1))
            $0.world.scheduler.advance(by: .hours(2))
            return $0.send("POST", "/v1/receipts", ["receipt": $0.freshReceipt], token: token, device: "phone-5")
        },
        SecurityCase(name: "a token signed with another secret", status: 401, code: "token_invalid") {
            let token = $0.token(secret: Digest.sha256(Array("guessed".utf8)))
            return $0.send("POST", "/v1/receipts", ["receipt": $0.freshReceipt], token: token, device: "phone-5")
        },
        SecurityCase(name: "a token with alg none and no signature", status: 401, code: "token_invalid") {
            $0.send("POST", "/v1/receipts", ["receipt": $0.freshReceipt], token: $0.unsignedToken, device: "phone-5")
        },
        SecurityCase(name: "a token whose claims were changed", status: 401, code: "token_invalid") {
            $0.send(
                "POST", "/v1/receipts", ["receipt": $0.freshReceipt], token: $0.tokenWithTamperedClaims,
                device: "phone-5")
        },
        SecurityCase(name: "a token of another app", status: 401, code: "token_other_app") {
            $0.send(
                "POST", "/v1/receipts", ["receipt": $0.freshReceipt], token: $0.token(audience: "com.other.app"),
                device: "phone-5")
        },
        SecurityCase(name: "a token for an identity that does not exist", status: 401, code: "token_unknown") {
            $0.send(
                "POST", "/v1/receipts", ["receipt": $0.freshReceipt], token: $0.token(sub: "anon-999999"),
                device: "phone-5")
        },
        SecurityCase(name: "a tampered token used to read the account's access", status: 401, code: "token_invalid") {
            $0.send("GET", "/v1/me", [:], token: $0.tokenWithTamperedClaims)
        },
        SecurityCase(name: "a transfer with a forged anonymous token", status: 401, code: "token_invalid") {
            let forged = $0.token(secret: Digest.sha256(Array("guessed".utf8)))
            return $0.send("POST", "/v1/transfers", ["anonymousToken": forged], token: $0.eveToken)
        },
        SecurityCase(name: "a transfer with another app's anonymous token", status: 401, code: "token_other_app") {
            $0.send(
                "POST", "/v1/transfers", ["anonymousToken": $0.token(audience: "com.other.app")], token: $0.eveToken)
        },
        SecurityCase(
            name: "a transfer offering an account's token as the anonymous one", status: 403,
            code: "restore_account_owned"
        ) {
            $0.send("POST", "/v1/transfers", ["anonymousToken": $0.accountToken], token: $0.eveToken)
        },
    ]

    static let restoreCases: [SecurityCase] = [
        SecurityCase(name: "another device's receipt used for a restore", status: 403, code: "restore_not_this_device")
        {
            $0.send("POST", "/v1/restores", ["receipt": $0.anonReceipt], device: "phone-2")
        },
        SecurityCase(name: "a restore that names no device", status: 403, code: "restore_not_this_device") {
            $0.send("POST", "/v1/restores", ["receipt": $0.anonReceipt])
        },
        SecurityCase(
            name: "an account's purchase restored by a new guest", status: 403, code: "restore_account_owned"
        ) {
            let receipt = $0.world.refreshedReceipt(on: "phone-4", appleId: "b@icloud.test")
            return $0.send(
                "POST", "/v1/restores", ["receipt": receipt, "confirmMoveFromAccount": true], device: "phone-4")
        },
        SecurityCase(
            name: "an account's purchase restored by an existing guest", status: 403, code: "restore_account_owned"
        ) {
            let receipt = $0.world.refreshedReceipt(on: "phone-4", appleId: "b@icloud.test")
            return $0.send(
                "POST", "/v1/restores", ["receipt": receipt, "confirmMoveFromAccount": true], token: $0.anonToken,
                device: "phone-4")
        },
    ]

    static let replayCases: [SecurityCase] = [
        SecurityCase(name: "the same receipt posted again by its owner", status: 200, code: nil, levels: ["premium"]) {
            $0.send("POST", "/v1/receipts", ["receipt": $0.anonReceipt], token: $0.anonToken, device: "phone-1")
        },
        SecurityCase(
            name: "the same receipt posted again after a renewal", status: 200, code: nil, levels: ["premium"],
            prepare: {
                $0.world.scheduler.advance(by: .days(31))
                // The first report after the renewal writes the new expiry; the replay writes nothing.
                $0.send("POST", "/v1/receipts", ["receipt": $0.anonReceipt], token: $0.anonToken, device: "phone-1")
            }
        ) {
            $0.send("POST", "/v1/receipts", ["receipt": $0.anonReceipt], token: $0.anonToken, device: "phone-1")
        },
        SecurityCase(name: "the same receipt posted by another identity", status: 200, code: nil, levels: []) {
            $0.send("POST", "/v1/receipts", ["receipt": $0.anonReceipt], token: $0.eveToken, device: "phone-1")
        },
        SecurityCase(
            name: "the same receipt posted by a device with no identity", status: 409, code: "purchase_owned_elsewhere"
        ) {
            $0.send("POST", "/v1/receipts", ["receipt": $0.anonReceipt], device: "phone-2")
        },
        SecurityCase(
            name: "a restore replayed by the owner after a renewal", status: 200, code: nil, levels: ["premium"],
            prepare: {
                $0.world.scheduler.advance(by: .days(31))
                $0.send("POST", "/v1/restores", ["receipt": $0.anonReceipt], token: $0.anonToken, device: "phone-1")
            }
        ) {
            $0.send("POST", "/v1/restores", ["receipt": $0.anonReceipt], token: $0.anonToken, device: "phone-1")
        },
        SecurityCase(
            name: "another device's receipt used for a restore after a renewal", status: 403,
            code: "restore_not_this_device",
            prepare: {
                $0.world.scheduler.advance(by: .days(31))
                $0.send("POST", "/v1/receipts", ["receipt": $0.anonReceipt], token: $0.anonToken, device: "phone-1")
            }
        ) {
            $0.send("POST", "/v1/restores", ["receipt": $0.anonReceipt], device: "phone-2")
        },
    ]

    static let notificationCases: [SecurityCase] = [
        SecurityCase(
            name: "the same signedPayload delivered twice", status: 200, code: "duplicate",
            prepare: { arena in
                let renewed = arena.notification(
                    .didRenew, uuid: "n-1", signedAt: arena.world.scheduler.now,
                    expires: SimInstant.worldStart + .days(61))
                #expect(arena.notify(renewed).code == "applied")
            }
        ) { arena in
            arena.notify(
                arena.notification(
                    .didRenew, uuid: "n-1", signedAt: arena.world.scheduler.now,
                    expires: SimInstant.worldStart + .days(61)))
        },
        SecurityCase(
            name: "an old notification after a newer one", status: 200, code: "stale", recordedIn: "notifications",
            prepare: { arena in
                arena.world.scheduler.advance(by: .days(10))
                let renewed = arena.notification(
                    .didRenew, uuid: "newer", signedAt: arena.world.scheduler.now,
                    expires: SimInstant.worldStart + .days(61))
                #expect(arena.notify(renewed).code == "applied")
            }
        ) { arena in
            // A refund signed before the renewal, delivered late: it must not take the access away.
            arena.notify(
                arena.notification(
                    .refund, uuid: "older", signedAt: SimInstant.worldStart + .days(5),
                    expires: SimInstant.worldStart + .days(31), revoked: true))
        },
        SecurityCase(name: "a notification signed with another key", status: 400, code: "signature_invalid") { arena in
            arena.notify(
                arena.notification(
                    .refund, uuid: "forged", signedAt: arena.world.scheduler.now,
                    expires: SimInstant.worldStart + .days(31), revoked: true, key: arena.strangerKey))
        },
        SecurityCase(name: "a notification changed after signing", status: 400, code: "signature_invalid") { arena in
            let genuine = arena.notification(
                .didRenew, uuid: "tampered", signedAt: arena.world.scheduler.now,
                expires: SimInstant.worldStart + .days(61))
            let parts = genuine.split(separator: ".").map(String.init)
            var payload = try JSONSerialization.jsonObject(with: Data(Base64URL.decode(parts[1])!)) as! [String: Any]
            payload["notificationType"] = "REFUND"
            let bytes = Array(try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]))
            return arena.notify(parts[0] + "." + Base64URL.encode(bytes) + "." + parts[2])
        },
        SecurityCase(name: "a genuine notification of another app", status: 400, code: "notification_other_app") {
            arena in
            arena.notify(
                arena.notification(
                    .refund, uuid: "other-app", signedAt: arena.world.scheduler.now,
                    expires: SimInstant.worldStart + .days(31), revoked: true, bundle: "com.other.app"))
        },
    ]

    @Test(arguments: cases)
    func isRefusedAndTheLedgerIsUnchanged(_ row: SecurityCase) throws {
        let arena = try SecurityArena()
        try row.prepare(arena)
        let ledger = arena.world.backend.ledger
        // Asking for access first: a `GET /v1/me` may itself write Apple's news of a lapsed renewal.
        let accessBefore = Self.access(arena)
        let before = try LedgerSnapshot(ledger)
        let answer = try row.attempt(arena)
        #expect(answer.status == row.status, "\(row.name): \(answer)")
        #expect(answer.code == row.code, "\(row.name): \(answer)")
        if let levels = row.levels { #expect(answer.levels == levels, "\(row.name)") }
        let after = try LedgerSnapshot(ledger)
        if let table = row.recordedIn {
            #expect(after.without(table) == before.without(table), "\(row.name): the ledger changed")
            let added = before.rowsAdded(to: table, in: after)
            #expect(added.count == 1 && added.allSatisfy { $0.hasSuffix("| 0 | 'stale'") }, "\(row.name): \(added)")
        } else {
            #expect(after == before, "\(row.name): the ledger changed: \(Self.difference(before, after))")
        }
        // Whatever was tried, nobody's access changed.
        #expect(Self.access(arena) == accessBefore, "\(row.name)")
        #expect(accessBefore["anon-000001"] == ["premium"])
    }

    /// Each identity's levels, asked with a genuine token issued now.
    private static func access(_ arena: SecurityArena) -> [String: [String]] {
        var levels: [String: [String]] = [:]
        for (id, kind) in [
            ("anon-000001", IdentityRecord.Kind.anonymous), (arena.accountId, .account), (arena.eveId, .account),
        ] {
            levels[id] = arena.send("GET", "/v1/me", [:], token: arena.token(sub: id, kind: kind)).levels
        }
        return levels
    }

    private static func difference(_ before: LedgerSnapshot, _ after: LedgerSnapshot) -> String {
        after.tables.keys.sorted().compactMap { table in
            let added = before.rowsAdded(to: table, in: after)
            let changed = zip(before.tables[table] ?? [], after.tables[table] ?? []).filter { $0 != $1 }
            if added.isEmpty && changed.isEmpty { return nil }
            return "\(table): +\(added) changed \(changed.map { "\($0.0) → \($0.1)" })"
        }.joined(separator: "; ")
    }
}

/// Restore-inspect tells the caller what a restore would do, never who else holds a purchase.
@Suite struct RestoreInspectPrivacyTests {
    @Test func anInspectAnswerNamesNoOtherCustomer() throws {
        let arena = try SecurityArena()
        for receipt in [arena.anonReceipt, arena.accountReceipt] {
            let answer = arena.send("POST", "/v1/restores/inspect", ["receipt": receipt], token: arena.eveToken)
            #expect(answer.status == 200)
            let text = String(decoding: try JSONSerialization.data(withJSONObject: answer.body), as: UTF8.self)
            for secret in ["anon-000001", arena.accountId, "ana@example.com", "phone-1", "phone-3"] {
                #expect(!text.contains(secret), "\(secret) in \(text)")
            }
        }
    }
}
