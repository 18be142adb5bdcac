import SimKernel
import Simulation

extension TestSupport {
    /// The bundled app launched on a fast network, its first answers landed: where most world tests start.
    static func launchedWorld() throws -> World {
        let world = try World(config: try demoConfig(), options: WorldOptions(latency: .fast))
        world.launch()
        world.scheduler.runUntilIdle()
        return world
    }

    /// The bundled app's world on the state folder `directory` (files on disk; nil: in memory), not launched yet.
    static func demoWorld(in directory: String?, latency: LatencyProfile) throws -> World {
        try World(config: try demoConfig(), options: WorldOptions(latency: latency, stateDirectory: directory))
    }
}
