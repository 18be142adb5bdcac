/// What the app calls its content, in the owner's words: "story" and "stories" in a kids app, "episode" in a podcast
/// app. The engine's own lines about content ("Subscribe to read the full …", "Access: free … only") say it as the
/// feed and the paywall do: the kids app said "full article" of a bedtime story (session 35). Without the field, an
/// app's content is articles, read.
public struct ContentWords: Codable, Sendable, Equatable {
    /// One piece of content: "story".
    public var one: String
    /// More than one: "stories".
    public var other: String
    /// What the reader does with one: "read", "listen to", "follow". Default "read".
    public var verb: String?

    public init(one: String, other: String, verb: String? = nil) {
        self.one = one
        self.other = other
        self.verb = verb
    }

    public static let articles = ContentWords(one: "article", other: "articles", verb: "read")

    /// The verb, "read" when the owner gave none.
    public var doing: String { verb ?? "read" }
}
