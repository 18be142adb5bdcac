import Simulation

extension TestSupport {
    /// The bundled app launched on a fast network, its first answers landed: where most world tests start.
    static func launchedWorld() throws -> World {
        let world = try World(config: try demoConfig(), options: WorldOptions(latency: .fast))
        world.launch()
        world.scheduler.runUntilIdle()
        return world
    }
}
