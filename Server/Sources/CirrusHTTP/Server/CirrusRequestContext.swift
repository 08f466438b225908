package import Hummingbird
package import NIOCore

/// The request context of the Cirrus application: Hummingbird's core context and the peer's address, which
/// per-client limits (uploads, LeanCloud's 430) are keyed on.
package struct CirrusRequestContext: RequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The address of the connection's peer; `nil` where there is no socket (the router test mode).
    package let remoteAddress: SocketAddress?

    package init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
