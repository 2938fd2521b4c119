/// Where a running server listens.
public struct ServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// The IP address, such as `127.0.0.1`.
    public let host: String
    /// The port.
    public let port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `host:port` (IPv6 hosts in brackets), the form `FIRESTORE_EMULATOR_HOST` takes.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
