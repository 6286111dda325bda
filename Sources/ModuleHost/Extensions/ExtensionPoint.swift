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
/// The library has points of its own, always declared: commands (contributed with ``Contribution/command(_:)``,
/// listed with ``ModuleManager/moduleCommands()``) and startup operations (``Contribution/startupOperation(_:)``,
/// ``ModuleStartupOperation/point``). A library built on ModuleHost declares its own the same way, with a check of
/// its contributions that `validate` runs (ModuleHostRouting's routes, contributed with `.route(_:)`); a host need
/// not declare those either.
public struct ExtensionPoint<Value: Sendable>: Sendable {
    /// The point's name, unique in a host; contributions name the point they are made to.
    package let name: String
    /// Whether two contributions may not share a key: `validate` reports a duplicate as an error that names both
    /// modules.
    package let requiresUniqueKeys: Bool
    /// How the library that declares the point checks its contributions (ModuleHostRouting's routes); `nil` for a
    /// point a host declares.
    let check: (any ExtensionPointCheck)?

    /// Declares a point whose contributions are values of `Value`.
    ///
    /// - Parameters:
    ///   - name: The point's name, unique in a host; contributions name the point they are made to.
    ///   - requiresUniqueKeys: Whether two contributions may not share a key; `validate` reports a duplicate.
    public init(_ name: String, requiresUniqueKeys: Bool = false) {
        self.name = name
        self.requiresUniqueKeys = requiresUniqueKeys
        check = nil
    }

    /// Declares a library's point: contributions to it need no declaration by the host, and `validate` runs
    /// `check` over them.
    package init(_ name: String, requiresUniqueKeys: Bool = false, check: any ExtensionPointCheck) {
        self.name = name
        self.requiresUniqueKeys = requiresUniqueKeys
        self.check = check
    }

    /// What a point is, without its value type: what the manager keeps to check contributions against.
    var declaration: ExtensionPointDeclaration {
        ExtensionPointDeclaration(name: name, valueType: ObjectIdentifier(Value.self),
                                  valueTypeName: { String(reflecting: Value.self) },
                                  requiresUniqueKeys: requiresUniqueKeys, isBuiltIn: false, check: check)
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
    /// Whether it is one of the library's own points (commands, startup operations), whose clashes their own
    /// passes check. A library's point is not: its keys are checked as any point's, and its `check` runs besides.
    var isBuiltIn: Bool
    /// A library's check of the contributions (run by validation, in the manifest layer).
    var check: (any ExtensionPointCheck)?
}

/// How a library built on ModuleHost checks the contributions to a point it declares. Opaque in the module model:
/// the manifest layer, which validates, defines the one kind of check (`ContributionCheck`) and runs it.
package protocol ExtensionPointCheck: AnyObject, Sendable {}
