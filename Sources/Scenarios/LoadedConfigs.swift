import WhiteLabel

/// Configs read once for a run of many worlds (a fuzz run's sessions and its shrinking): reading and
/// checking the config was a quarter of each fuzz session's set-up. A new run reads the files again.
public final class LoadedConfigs {
    private var configs: [String: DemoConfig] = [:]

    public init() {}

    /// The config read for `key` in this run, or `load`'s now.
    func config(_ key: String, load: () throws(StepError) -> DemoConfig) throws(StepError) -> DemoConfig {
        if let known = configs[key] { return known }
        let config = try load()
        configs[key] = config
        return config
    }
}
