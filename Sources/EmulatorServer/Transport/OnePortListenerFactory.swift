import GRPCNIOTransportHTTP2Posix
import NIOCore
import NIOPosix

/// Binds the emulator's one TCP port for grpc-swift's `HTTP2ServerTransport.Custom`: every
/// accepted connection gets a `ProtocolGate` in front of the transport's own HTTP/2 pipeline,
/// so gRPC connections are served by the transport unchanged while HTTP/1.1 connections are
/// taken over by the REST gateway.
struct OnePortListenerFactory: HTTP2ServerTransport.ListenerFactory {
    let host: String
    let port: Int
    let eventLoopGroup: any EventLoopGroup
    /// The stream limit announced to gRPC clients (see `StreamLimitAnnouncer`).
    let announcedStreamLimit: Int
    let makeRESTHandler: @Sendable () -> RESTChannelHandler

    func makeListeningChannel(
        listenerConfigurator: HTTP2ServerTransport.ListenerConfigurator,
        connectionConfigurator: HTTP2ServerTransport.ConnectionConfigurator
    ) async throws -> NIOAsyncChannel<HTTP2ServerTransport.ConnectionConfigurator.ConnectionChannel, Never> {
        let makeRESTHandler = self.makeRESTHandler
        let announcedStreamLimit = self.announcedStreamLimit
        return try await ServerBootstrap(group: eventLoopGroup)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { listenerConfigurator.configure(channel: $0) }
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ProtocolGate(makeRESTHandler: makeRESTHandler))
                    try channel.pipeline.syncOperations.addHandler(StreamLimitAnnouncer(announcedLimit: announcedStreamLimit))
                }.flatMap {
                    connectionConfigurator.configure(channel: channel, tls: .none)
                }
            }
    }
}
