import StoreSim

extension World {
    /// The offer codes the catalog holds, for the fuzzer and the control pane.
    public var offerCodes: [String] { config.store.products.flatMap { $0.offerCodes ?? [] }.map(\.code) }

    /// The reader redeems an offer code on the App Store, outside the app, with the phone's Apple ID: the
    /// transaction reaches the app's observer as any purchase does. Nil when honoured, else why not.
    public func redeemOfferCode(_ code: String) -> String? {
        timeline.log(.control, "offer code \(code) redeemed on the App Store")
        return device.queue.redeemOfferCode(code)
    }
}
