import ModuleHost

/// The modules loaded now, as the server that hosts them sees them: a service the server provides
/// (`manager.provide(_:as:)`), so a module can list its neighbours without being handed the manager itself.
public struct LoadedModules: Sendable {
    private let list: @Sendable () -> [ModuleIdentifier]

    /// A listing that asks `list` each time.
    ///
    /// - Parameter list: The identifiers of the modules loaded now, in load order.
    public init(_ list: @escaping @Sendable () -> [ModuleIdentifier]) {
        self.list = list
    }

    /// The identifiers of the modules loaded now.
    public var identifiers: [ModuleIdentifier] { list() }
}
