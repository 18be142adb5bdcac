import SimKernel
import Subscriptions

/// One app process's way to the network, as the invariants watch it from outside the app: the receipts it sent
/// whose answer has not come back (a quit then loses one, and the next launch must send it again), and each
/// receipt the server accepted, told as it accepts it, even for a process that has quit since (`PayingCheck`).
/// A send the network drops (a timeout) stays counted: the app heard a failure, which a fault excuses.
/// And each time the server answered the app's question about its levels with some: the server's word when it
/// spoke, which an answer still on its way when a refund lands no longer is (`ToldCheck`, fuzz seed 3934).
/// And each answer to the check before paying the app took, or to a restore's same ask: what it knew before any sheet
/// (`RestoreFirstCheck`). And the sign-in it sent last, with each acceptance of it, or of the same one sent before it,
/// that the app took (`ToldCheck+SignIn`).
final class PhoneTransport: BackendTransport {
    private let network: SimulatedNetwork
    private(set) var receiptsOnTheirWay = 0
    /// Set by the world: the server answered a receipt of this process with 200.
    var onReceiptAccepted: (() -> Void)?
    /// Set by the world: the server answered `GET /v1/me` of this process with levels.
    var onLevelsAnswered: (() -> Void)?
    /// True while the server's own 200 to `POST /v1/restores/inspect` is handed to the app: the app's `onAnswer`, called
    /// only for an answer it took (not one landing after it gave up at its timeout, fuzz seed 1 session 1367), then
    /// tells the world the app heard what a restore would answer.
    private(set) var handingInspectAnswer = false
    /// While one is handed: when the server spoke it (ownership may change while it travels, long fuzz seed 1410).
    private(set) var handingInspectSpokenAt: SimInstant?

    /// The sign-in (log-in or sign-up) this process sent last, counted from the first of the same ones sent in a row,
    /// and each of the server's own acceptances of one of them that the app took while they were its last, by when it was
    /// sent and when it reached the app, on `signInTicks` (`ToldCheck+SignIn`: a sign-in told failed while the server
    /// accepted the same one, sent before the failure was told and answered after the act began).
    private(set) var signIn: (request: SignInRequest, run: Int, accepted: [(sent: Int, reached: Int)])?
    private var signInRuns = 0
    /// Counts each sign-in sent and each answer to one reaching the app: what came before what within one instant.
    private(set) var signInTicks = 0
    /// While the server's own acceptance of a sign-in of the last run is handed to the app: when it was sent. The app
    /// takes it (`answerTaken`) unless it gave up at its timeout, or quit.
    private var handingSignInAcceptance: (run: Int, sent: Int)?

    init(_ network: SimulatedNetwork) {
        self.network = network
    }

    func send(_ request: HTTPRequest, completion: @escaping (HTTPResponse) -> Void) {
        if let sent = SignInRequest(request) {
            if signIn?.request != sent {
                signInRuns += 1
                signIn = (sent, signInRuns, [])
            }
            signInTicks += 1
            let (run, sentAt) = (signInRuns, signInTicks)
            // The server's own answer (not a fault standing in for it: a malformed 200 accepts nothing).
            var accepted = false
            return network.send(
                request, handled: { accepted = $0.isSuccess },
                completion: { [self] response in
                    signInTicks += 1
                    handingSignInAcceptance = accepted && signIn?.run == run ? (run, sentAt) : nil
                    defer { handingSignInAcceptance = nil }
                    completion(response)
                })
        }
        if request.method == "GET", request.path == "/v1/me" {
            return network.send(
                request,
                handled: { [self] response in if Self.grantsLevels(response) { onLevelsAnswered?() } },
                completion: completion)
        }
        if request.method == "POST", request.path == "/v1/restores/inspect" {
            // The server's own 200 (not a fault standing in for it: a malformed body), told as the app takes it.
            var answered = false
            var spoken: SimInstant?
            return network.send(
                request,
                handled: { [network] in
                    answered = $0.status == 200
                    spoken = network.now
                },
                completion: { [self] response in
                    (handingInspectAnswer, handingInspectSpokenAt) = (answered, spoken)
                    defer { (handingInspectAnswer, handingInspectSpokenAt) = (false, nil) }
                    completion(response)
                })
        }
        guard request.method == "POST", request.path == "/v1/receipts" else {
            return network.send(request, completion: completion)
        }
        receiptsOnTheirWay += 1
        network.send(
            request,
            handled: { [self] response in if response.status == 200 { onReceiptAccepted?() } },
            completion: { [self] response in
                receiptsOnTheirWay -= 1
                completion(response)
            })
    }

    /// Told by the app's client as it takes an answer: a sign-in's acceptance handed now is one the app took.
    func answerTaken() {
        guard let handing = handingSignInAcceptance, signIn?.run == handing.run else { return }
        signIn?.accepted.append((handing.sent, signInTicks))
        handingSignInAcceptance = nil
    }

    private static func grantsLevels(_ response: HTTPResponse) -> Bool {
        guard response.status == 200, case .array(let levels)? = QuickJSON.object(response.body)?["levels"] else {
            return false
        }
        return !levels.isEmpty
    }
}

/// A log-in or a sign-up as the app sent it: which, and the email and password (the whole body where it is not plain
/// JSON). The guest token it may carry is not compared: the same credentials sent again are the same sign-in.
struct SignInRequest: Equatable {
    let path: String
    let credentials: [UInt8]

    /// The request a reader's log-in (or sign-up) sends: what `ToldCheck+SignIn` judges a failure told of.
    init(path: String, email: String, password: String) {
        self.path = path
        credentials = Array(email.lowercased().utf8) + [0] + Array(password.utf8)
    }

    init?(_ request: HTTPRequest) {
        guard request.method == "POST", request.path == "/v1/accounts" || request.path == "/v1/sessions" else {
            return nil
        }
        path = request.path
        let fields = QuickJSON.object(request.body)
        if case .string(let email)? = fields?["email"], case .string(let password)? = fields?["password"] {
            credentials = Array(email.lowercased().utf8) + [0] + Array(password.utf8)
        } else {
            credentials = request.body
        }
    }
}
