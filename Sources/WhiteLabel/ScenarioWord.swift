import SimKernel

/// An identifier a scenario names as one word (`select offer ID`, `open content ID`, `store upgrade PRODUCT`,
/// `expect levels L, L…`), and a recording writes so: an offer id "premium monthly" loaded and sold, yet no line
/// could select it, and a recording of its purchase did not replay (session 37). Such an id is refused at its field.
public enum ScenarioWord {
    /// What keeps `identifier` from being one word of a scenario line, or nil when nothing does.
    public static func problem(_ identifier: String) -> String? {
        for scalar in identifier.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                return
                    "\"\(identifier.withVisibleControls)\" holds a control character: a scenario names it as one word"
            }
            if scalar.properties.isWhitespace {
                return "\"\(identifier)\" holds a space: a scenario names it as one word"
            }
            if scalar == "#" || scalar == "\"" || scalar == "," {
                return "\"\(identifier)\" holds \(scalar): a scenario names it as one word, where # starts a "
                    + "comment, \" quotes and , parts a list"
            }
        }
        return nil
    }
}
