/// A typed, named place that modules contribute to, such as "HTTP routes" or "settings panes".
///
/// A host (or the library, for its own points) declares a point; modules contribute to it in their one
/// ``ModuleProtocol/contributions`` declaration; the host enumerates the contributions with
/// ``ModuleManager/extensions(of:)``, in manifest order. Reading contributions instantiates nothing: a module
/// that contributes itself (``Contribution/module(_:to:key:as:)``) is instantiated only when its contribution's
/// value is asked for, and a module that contributes nothing never is.
///
/// ```swift
/// extension ExtensionPoint where Value == any RouteContributing {
///     static var httpRoutes: Self { ExtensionPoint("server.http-routes") }
/// }
/// manager.declare(.httpRoutes)
/// for contribution in manager.extensions(of: .httpRoutes) { try contribution.value().addRoutes(to: router) }
/// ```
///
/// The library's own points are ``ModuleCommand/point``, ``ModuleRoute/point`` and
/// ``ModuleStartupOperation/point``; they are always declared.
public struct ExtensionPoint<Value: Sendable>: Sendable {
    /// The point's name, unique in a host; contributions name the point they are made to.
    public let name: String
    /// Whether two contributions may not share a key: `validate` reports a duplicate as an error that names both
    /// modules.
    public let requiresUniqueKeys: Bool

    /// Declares a point named `name` whose contributions are values of `Value`.
    public init(_ name: String, requiresUniqueKeys: Bool = false) {
        self.name = name
        self.requiresUniqueKeys = requiresUniqueKeys
    }

    /// What a point is, without its value type: what the manager keeps to check contributions against.
    var declaration: ExtensionPointDeclaration {
        ExtensionPointDeclaration(name: name, valueType: ObjectIdentifier(Value.self),
                                  valueTypeName: { String(reflecting: Value.self) },
                                  requiresUniqueKeys: requiresUniqueKeys, isBuiltIn: false)
    }
}

/// A declared point with its value type erased: its name, the identity of the type its contributions must have,
/// and whether their keys must be unique.
struct ExtensionPointDeclaration: Sendable {
    let name: String
    let valueType: ObjectIdentifier
    /// The value type as Swift prints it; computed when a message needs it (printing a type asks the runtime).
    let valueTypeName: @Sendable () -> String
    let requiresUniqueKeys: Bool
    /// Whether it is one of the library's own points, whose clashes their own passes check.
    var isBuiltIn: Bool
}
