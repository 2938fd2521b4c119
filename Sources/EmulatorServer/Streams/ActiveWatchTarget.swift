import DocumentModel
import DocumentStore
import Foundation

/// A target open on a Listen stream: its store listeners (one per part of the `WatchTarget`)
/// and what the stream has told the client about it so far.
struct ActiveWatchTarget {
    /// The client's target id.
    let id: Int32
    /// Tells this target's snapshots apart from those of an earlier target with the same id.
    let serial: Int
    let target: WatchTarget
    /// One store listener per part, consumed by the session when it says it is ready.
    let streams: [ListenerStream]
    /// The version of each part's last snapshot (`nil` until its first one).
    private(set) var versions: [Int64?]
    /// How many documents each part holds now.
    private(set) var counts: [Int]
    /// Whether the client was told `CURRENT`.
    var isCurrent = false
    /// Whether the target was reset (a resume the store could not serve as a difference).
    var wasReset = false

    init(id: Int32, serial: Int, target: WatchTarget, streams: [ListenerStream]) {
        self.id = id
        self.serial = serial
        self.target = target
        self.streams = streams
        versions = Array(repeating: nil, count: streams.count)
        counts = Array(repeating: 0, count: streams.count)
    }

    /// Whether `part` has delivered its first snapshot.
    func hasDelivered(_ part: Int) -> Bool { versions[part] != nil }

    /// Records a part's snapshot.
    mutating func record(_ snapshot: ListenSnapshot, part: Int) {
        versions[part] = snapshot.resumeToken
        counts[part] = snapshot.documents.count
    }

    /// Whether every part has delivered its first snapshot.
    var hasInitialState: Bool { versions.allSatisfy { $0 != nil } }

    /// The version every part reflects at least: what the target resumes from.
    var resumeVersion: Int64 { versions.lazy.compactMap { $0 }.min() ?? 0 }

    /// The newest version a part reflects: the target's read time.
    var readVersion: Int64 { versions.lazy.compactMap { $0 }.max() ?? 0 }

    /// How many documents the target holds.
    var documentCount: Int { counts.reduce(0, +) }

    /// Stops the store listeners; releases everything the target held.
    func stop() {
        for stream in streams { stream.cancel() }
    }
}
