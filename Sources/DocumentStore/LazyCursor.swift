import LevelDB

/// A LevelDB cursor made on first use: reads that the presence filter answers (documents that
/// cannot exist) then cost no iterator at all.
final class LazyCursor {
    private let database: Database
    private var made: Cursor?

    init(_ database: Database) {
        self.database = database
    }

    /// The cursor, made now if this is its first use.
    func cursor() throws -> Cursor {
        if let made { return made }
        let cursor = try database.makeCursor()
        made = cursor
        return cursor
    }
}
