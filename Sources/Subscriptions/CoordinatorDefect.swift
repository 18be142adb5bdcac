/// A rule of the coordinator broken on purpose, to prove the fuzzer catches it
/// (`paywall-sim fuzz --defect NAME`). Never set in a normal run.
public enum CoordinatorDefect: String, CaseIterable, Sendable {
    /// Unlocks the app's content on Apple's "purchased", without waiting for the backend's word.
    case unlockOnPurchased = "unlock-on-purchased"
    /// Lets a second payment start while one is running.
    case secondPayment = "second-payment"
    /// Keeps the cached full content of a level the reader lost.
    case keepCache = "keep-cache"
}
