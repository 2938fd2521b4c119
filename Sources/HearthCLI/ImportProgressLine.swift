import FirestoreExport
import Foundation

/// An import's progress on one terminal line of standard error, rewritten in place:
/// `importing 120000/1000000 documents, 45.1/380.2 MB, 52000 documents/s, ETA 17 s`.
final class ImportProgressLine {
    private var shown = false

    func show(_ progress: StoreImporter.Progress) {
        let rate = progress.elapsedSeconds > 0 ? Double(progress.documents) / progress.elapsedSeconds : 0
        var line =
            "importing \(progress.documents)/\(progress.totalDocuments) documents, "
            + "\(Self.megabytes(progress.bytes))/\(Self.megabytes(progress.totalBytes)), "
        line += "\(Int(rate)) documents/s"
        if rate > 0 {
            line += ", ETA \(Int((Double(progress.totalDocuments - progress.documents) / rate).rounded())) s"
        }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
        shown = true
    }

    /// Ends the line.
    func finish() {
        if shown { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    /// `bytes` in megabytes with one decimal: `45.1 MB`.
    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
