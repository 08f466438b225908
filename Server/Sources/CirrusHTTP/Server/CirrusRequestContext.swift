public import Hummingbird
public import NIOCore

/// The request context of the Cirrus application: Hummingbird's core context and the peer's address, which
/// per-client limits (uploads, LeanCloud's 430) are keyed on.
public struct CirrusRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The address of the connection's peer; `nil` where there is no socket (the router test mode).
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
