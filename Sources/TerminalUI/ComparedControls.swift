import Simulation

/// `compare --live`'s one control pane over every world. A row whose value differs between the worlds (the
/// setting compared, "Finish" under `--vary finish=before,after`, or a state they came to apart) reads "per world",
/// and Enter on it changes no world: pressed on all, each would take the first world's next value, and worlds
/// still titled "finish=before" and "finish=after" would run alike (session 41: the row said the first world's
/// value of both, and one press made them the same).
public enum ComparedControls {
    public static let perWorld = "per world"

    /// The first world's rows, each whose value another world does not share reading `perWorld`.
    public static func controls(_ readings: [ControlReadings]) -> [Control] {
        let boards = readings.map(ControlBoard.controls)
        guard let first = boards.first else { return [] }
        return first.indices.map { row in
            var control = first[row]
            if boards.dropFirst().contains(where: { $0[row].value != control.value }) { control.value = perWorld }
            return control
        }
    }

    /// Enter on `control` in every world, or, where the worlds differ in it, in none: each world's timeline says
    /// why, as a refused control does.
    public static func press(_ control: Control, on worlds: [World]) {
        guard control.value == perWorld else {
            // A world that refuses writes why on its own timeline, which the pane shows.
            for world in worlds { _ = control.action.press(on: world) }
            return
        }
        for world in worlds {
            world.timeline.log(.control, "\(control.label) refused: the worlds differ in it, and each keeps its own")
        }
    }
}
