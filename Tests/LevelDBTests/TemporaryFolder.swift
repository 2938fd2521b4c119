import Foundation

/// A fresh folder under the system's temporary directory, removed by `remove()`.
struct TemporaryFolder {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "hearth-leveldb-tests-" + UUID().uuidString
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

extension Array where Element == UInt8 {
    /// The UTF-8 bytes of `text`, for readable keys in tests.
    init(_ text: String) { self = Array(text.utf8) }
}
