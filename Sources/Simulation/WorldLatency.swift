import SimKernel

extension World {
    /// How long the store and the network take from now on; both change together so a profile
    /// means the same whole world it means at launch (`--latency`). Calls already in flight keep their delay.
    public var latency: LatencyProfile {
        get { store.latency }
        set {
            store.latency = newValue
            network.latency = newValue
            timeline.log(.control, "latency profile \(newValue.name)")
        }
    }
}
