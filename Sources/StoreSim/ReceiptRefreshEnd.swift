/// How an `SKReceiptRefreshRequest` ended: the phone's receipt written again (or found missing), the request failed, or
/// the reader cancelled the Apple ID sign-in it asked for (`SKErrorPaymentCancelled`), which an app tells apart from a
/// failure: the reader chose it, and no error is theirs to read.
public enum ReceiptRefreshEnd: Equatable, Sendable {
    case ended
    case failed
    case cancelled
}
