/// Extension points: declaring one, and enumerating what the registered modules contribute to it.
extension ModuleManager {
    /// Declares `point`, so modules may contribute to it: `validate` reports a contribution to a point that is not
    /// declared, one of another type, and a duplicate key where the point requires unique keys. Declare points
    /// before registering the manifest. Returns false, and changes nothing, when the name is taken by a point of
    /// another value type or uniqueness (declaring the same point again is harmless), or starts with `modulehost.`
    /// without being one of the points of ModuleHost and its libraries (whose names those are).
    ///
    /// - Parameter point: The extension point.
    /// - Returns: Whether the point is declared (also when it was already).
    @discardableResult
    public func declare<Value>(_ point: ExtensionPoint<Value>) -> Bool {
        registry.declare(point.declaration)
    }

    /// The contributions of the registered modules to `point`, in registration (manifest) order, then each
    /// module's declaration order. Reading them instantiates nothing; a module that contributes itself is
    /// instantiated when its contribution's ``ExtensionPoint/Extension/value()`` is first asked for.
    /// Contributions of another value type are left out (`validate` reports them).
    ///
    /// - Parameter point: The extension point.
    /// - Returns: The contributions to it, in order.
    public func extensions<Value>(of point: ExtensionPoint<Value>) -> [ExtensionPoint<Value>.Extension] {
        registry.orderedRegistrations().flatMap { registration in
            registration.contributions.compactMap { contribution in
                guard contribution.pointName == point.name, let source = contribution.source(as: Value.self) else {
                    return nil
                }
                return ExtensionPoint<Value>.Extension(module: registration.identifier, key: contribution.key,
                                                       source: source, context: self)
            }
        }
    }
}
