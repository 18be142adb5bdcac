import Simulation

extension WorldAction {
    /// Enter on a control: the action done to `world`; nil when done, else why the world refused (it
    /// changed nothing, and wrote why on the timeline). The loop and the tests press controls this way.
    func press(on world: World) -> WorldActionRefusal? {
        do {
            try apply(to: world)
            return nil
        } catch {
            return error
        }
    }
}
