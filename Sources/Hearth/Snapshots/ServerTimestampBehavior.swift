/// How a snapshot shows a field whose `FieldValue.serverTimestamp()` the server has not set
/// yet (a write still pending), as in the Firebase SDK.
///
/// ```swift
/// let shown = snapshot.data(with: .estimate)   // the local write time instead of nil
/// ```
public enum ServerTimestampBehavior: Sendable, Hashable {
    /// As null (`NSNull` in `data()`): the default.
    case none
    /// As the local time of the write, an estimate of the server's.
    case estimate
    /// As the value the field had before the write (null if it had none).
    case previous
}
