import Simulation
import WhiteLabel

// Placeholder until the terminal front lands.
public enum TerminalFront {
    public static func run(world: World, theme: Theme) throws -> Int32 { 0 }
}
