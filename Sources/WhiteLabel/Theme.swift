import FoundationEssentials

/// How the terminal looks for one demo app: colors per role, border style, logo.
public struct Theme: Codable, Sendable, Equatable {
    /// A color for 256-color terminals and its stand-in on 8-color ones.
    public struct Color: Codable, Sendable, Equatable {
        public var c256: Int
        public var c8: BasicColor
    }

    /// The eight colors every color terminal has.
    public enum BasicColor: String, Codable, Sendable, CaseIterable {
        case black, red, green, yellow, blue, magenta, cyan, white
    }

    public enum BorderStyle: String, Codable, Sendable, CaseIterable {
        case single, rounded, double, ascii
    }

    /// What each color is for; every theme defines every role.
    public enum Role: String, Codable, Sendable, CaseIterable {
        case text, muted, accent, border, highlight, locked, success, error, app, store, backend, reader, control
    }

    public var name: String
    public var border: BorderStyle
    public var logo: String
    public var colors: [String: Color]

    public func color(_ role: Role) -> Color? { colors[role.rawValue] }
}

public enum ThemeLoader {
    public static func load(path: String) throws(ConfigError) -> Theme {
        try decode(try JSONFileDecoder.readData(atPath: path), file: path)
    }

    /// Decodes and checks a theme's bytes; `file` names it in messages.
    public static func decode(_ data: Data, file: String) throws(ConfigError) -> Theme {
        let theme = try JSONFileDecoder.decode(Theme.self, from: data, file: file)
        if let unknown = UnknownFields.first(Theme.self, in: data, file: file) { throw unknown }
        // A role's name is a key of `colors`: "acent" beside the others was never read (session 26).
        let roles = Theme.Role.allCases.map(\.rawValue)
        for role in theme.colors.keys.sorted() where !roles.contains(role) {
            let near = UnknownFields.nearest(to: role, among: roles).map { "did you mean \"\($0)\"?" }
            throw ConfigError(
                file: file, location: "colors.\(role)",
                message: "not a color role; \(near ?? "the roles are \(roles.joined(separator: ", "))")")
        }
        for role in Theme.Role.allCases where theme.colors[role.rawValue] == nil {
            throw ConfigError(file: file, location: "colors.\(role.rawValue)", message: "is missing")
        }
        for (role, color) in theme.colors where !(0...255).contains(color.c256) {
            throw ConfigError(file: file, location: "colors.\(role).c256", message: "must be from 0 to 255")
        }
        return theme
    }
}

extension ThemeLoader {
    /// The theme `config` names (`app.theme`), from the bundled `themes/`. Every command that loads a config checks it
    /// here: `check --paywall` and `screens` passed a config whose theme `run` then refused (session 28).
    public static func load(for config: DemoConfig, resources: ResourceLocator?) throws(ConfigError) -> Theme {
        let file = config.sourcePath ?? "the demo config"
        guard let resources else {
            throw ConfigError(
                file: file, location: "app.theme",
                message: "cannot find the bundled themes (themes/); set PAYWALL_SIM_HOME to the package folder")
        }
        do {
            return try load(path: resources.themePath(named: config.app.theme))
        } catch {
            throw ConfigError(file: file, location: "app.theme", message: "\"\(config.app.theme)\": \(error)")
        }
    }
}
