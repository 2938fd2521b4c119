import DocumentModel

extension StorageKeys {
    /// A stored key for people: `document projects/p/databases/d/documents/users/alice` for the
    /// documents table, else the table's name and the key's first bytes in hexadecimal.
    static func describe(_ key: [UInt8]) -> String {
        if key.first == Table.documents.rawValue, let (name, _) = try? decodeVersionKey(key) {
            return "document \(name.resourceName)"
        }
        let table = key.first.flatMap(Table.init(rawValue:)).map { "\($0)" } ?? "unknown table"
        let hex = key.prefix(32).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        return "\(table) key \(hex)\(key.count > 32 ? "…" : "")"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
