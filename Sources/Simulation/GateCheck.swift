import AppFlow
import SimKernel

/// Invariant 15, the parental gate first (seed 000: "in apps for children, or when the reader is under age,
/// a simple parental gate comes first"; seed 001: "close to the operation that can spend money"): where the gate is
/// required, every payment started from a phone — one that reaches Apple's queue, or a switch on Apple's manage sheet
/// that charges at once — follows a right answer to the gate on that phone, one answer a payment. An answer is
/// judged against the question the phone showed, not by the app. And a gate's question is one a child cannot answer
/// at a glance: the next gate that phone shows does not ask again the question a grown-up was just seen answering
/// right (the same "7 × 8" every time was answered by a child who had watched once, session 27).
struct GateCheck {
    /// How the payment started.
    enum Start {
        case queue
        case sheetSwitch
    }

    /// Right answers given on each phone and the payments taken from it, by the store's device identifier.
    private var answers: [String: Int] = [:]
    private var payments: [String: Int] = [:]
    private var found: [InvariantViolation] = []
    /// The question a grown-up last answered right on each phone, until that phone shows its next gate.
    private var answered: [String: String] = [:]

    mutating func willRun(_ step: MonitoredStep, world: World) {
        guard case .reader(.answerGate(let answer)) = step, world.isAppRunning,
            world.appState.route == .parentalGate, let gate = world.appState.gate,
            let right = ParentalGate.answer(to: gate.question), answer.map({ $0.trimmingSpaces() == right }) ?? true
        else { return }
        answers[World.deviceId(world.deviceName, world.appleId), default: 0] += 1
        answered[World.deviceId(world.deviceName, world.appleId)] = gate.question
    }

    /// The store took a payment for `productId` from `deviceId`.
    mutating func paymentAdded(_ productId: String, deviceId: String, world: World, how: Start) {
        let age = world.readerAge.flatMap { $0 < Device.adultAge ? $0 : nil }
        guard world.config.app.kids || age != nil else { return }
        payments[deviceId, default: 0] += 1
        guard payments[deviceId, default: 0] > answers[deviceId, default: 0] else { return }
        let who = age.map { "a reader aged \($0)" } ?? "a kids app"
        found.append(
            InvariantViolation(
                .parentalGateFirst,
                "\(how == .queue ? "a payment" : "a switch on Apple's manage sheet, charged at once,") for "
                    + "\(productId) reached the App Store from \(deviceId) (\(who)) with no right answer to the "
                    + "parental gate before it"))
    }

    /// The phone `deviceId` showed a gate asking `question` (`WorldEvent.parentalGateShown`): the next gate after a
    /// right answer, judged as it comes up, for a gate a parent's approval closed within the step was the next one
    /// too, and the one after it may ask again what was answered before it (fuzz --seed 4123).
    mutating func shown(_ question: String, deviceId: String) {
        guard let last = answered.removeValue(forKey: deviceId), question == last else { return }
        found.append(
            InvariantViolation(
                .parentalGateFirst,
                "the parental gate on \(deviceId) asks \"\(last)\" again, the question a grown-up was just seen "
                    + "answering right"))
    }

    /// What was found since the last call.
    mutating func check() -> [InvariantViolation] {
        defer { found = [] }
        return found
    }
}
