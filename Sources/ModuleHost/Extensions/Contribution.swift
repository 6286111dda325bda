/// What one module adds to one ``ExtensionPoint``: a value, or the module itself as a value of the point's type.
///
/// A module lists its contributions in ``ModuleProtocol/contributions``, its one declaration of what it adds to
/// the host: commands, routes, startup operations and the points the app declares.
///
/// ```swift
/// public static let contributions: [Contribution] = [
///     .command(ModuleCommand("uptime", summary: "how long the app has run") { _ in .text("up") }),
///     Contribution(to: .settingsPanes, StatusPane(), key: "status"),
///     .module(StatusModule.self, to: .httpRoutes) { $0 },
/// ]
/// ```
public struct Contribution: Sendable {
    /// Everything the contribution says, in one object: the validator, the registry and the initiator each walk
    /// every module's contributions, and a copy is then one reference instead of half a dozen.
    let box: ContributionBox

    /// The name of the point contributed to.
    var pointName: String { box.pointName }
    /// The contribution's key, unique among a point's contributions when the point requires it.
    var key: String? { box.key }
    /// The identity of the value's static type, checked against the point's.
    var valueType: ObjectIdentifier { ObjectIdentifier(box.valueType) }
    /// The module type a ``module(_:to:key:as:)`` contribution makes; validation checks that it is the
    /// contributing module's own.
    var moduleType: (any ModuleProtocol.Type)? { box.moduleType }
    /// The point, when a library declares it (with its check): a host need not declare it for contributions to fit.
    var libraryPoint: ExtensionPointDeclaration? { box.libraryPoint?.declaration }

    /// Contributes `value` to `point`; reading it never instantiates the module.
    ///
    /// - Parameters:
    ///   - point: The point contributed to.
    ///   - value: The value contributed.
    ///   - key: The contribution's key, unique among the point's contributions when the point requires it; `nil`
    ///     for none.
    public init<Value: Sendable>(to point: ExtensionPoint<Value>, _ value: Value, key: String? = nil) {
        self.init(point, key: key, module: nil, .value(value))
    }

    /// Contributes the module itself to `point`, as the value `convert` makes of it (`type` is the contributing
    /// module's own type; `validate` reports another): the module is instantiated
    /// (through the bridge, with the modules it requires) when the contribution's value is first asked for,
    /// never when contributions are read. `convert` is checked by the compiler, so `{ $0 }` contributes a module
    /// to a point of a protocol it conforms to.
    ///
    /// - Parameters:
    ///   - type: The contributing module's own type.
    ///   - point: The point contributed to.
    ///   - key: The contribution's key; `nil` for none.
    ///   - convert: Makes the point's value of the module instance.
    /// - Returns: The contribution, for the module's ``ModuleProtocol/contributions``.
    public static func module<Module: ModuleProtocol, Value: Sendable>(
        _ type: Module.Type, to point: ExtensionPoint<Value>, key: String? = nil,
        as convert: @escaping @Sendable (Module) -> Value
    ) -> Contribution {
        Contribution(point, key: key, module: Module.self, .module { context throws(ResolutionError) in
            convert(try context.bridge.resolve(Module.moduleIdentifier, as: Module.self))
        })
    }

    private init<Value: Sendable>(_ point: ExtensionPoint<Value>, key: String?, module: (any ModuleProtocol.Type)?,
                                  _ source: ContributedValue<Value>.Source) {
        box = ContributedValue(source, pointName: point.name, key: key, moduleType: module,
                               libraryPoint: point.check == nil ? nil : point.declaration)
    }

    /// The value's type as Swift prints it, for messages.
    func valueTypeName() -> String {
        String(reflecting: box.valueType)
    }

    /// The contribution's value or maker when its value type is `Value`, `nil` when it is another type. The box's
    /// type follows from `valueType` (the initializers pair them), so no dynamic cast is needed.
    func source<Value: Sendable>(as type: Value.Type) -> ContributedValue<Value>.Source? {
        guard valueType == ObjectIdentifier(Value.self) else { return nil }
        return unsafeDowncast(box, to: ContributedValue<Value>.self).source
    }

    /// Calls `body` with the contributed value, when it is one of type `Value` that is not the module itself. The
    /// value is lent to `body` in place, not copied out of the box (a copy retains every reference it holds, and a
    /// startup operation holds several).
    func withValue<Value: Sendable>(as type: Value.Type, _ body: (Value) -> Void) {
        guard valueType == ObjectIdentifier(Value.self),
              case .value(let value) = unsafeDowncast(box, to: ContributedValue<Value>.self).source else { return }
        body(value)
    }
}

/// What a contribution says, whatever its value's type; a ``ContributedValue`` adds the value.
class ContributionBox: @unchecked Sendable {
    // Unchecked: every property is a constant of a `Sendable` type (an `Any.Type` is a metatype).
    let pointName: String
    let key: String?
    /// The value's static type.
    let valueType: Any.Type
    let moduleType: (any ModuleProtocol.Type)?
    /// The point's declaration when it is a library's own point (one with a check); held by reference, as few
    /// contributions have one and it would otherwise take 64 bytes in every box.
    let libraryPoint: LibraryPointReference?

    init(pointName: String, key: String?, valueType: Any.Type, moduleType: (any ModuleProtocol.Type)?,
         libraryPoint: ExtensionPointDeclaration?) {
        self.pointName = pointName
        self.key = key
        self.valueType = valueType
        self.moduleType = moduleType
        self.libraryPoint = libraryPoint.map(LibraryPointReference.init)
    }
}

/// A library point's declaration, held by the contributions to it.
final class LibraryPointReference: Sendable {
    let declaration: ExtensionPointDeclaration

    init(_ declaration: ExtensionPointDeclaration) {
        self.declaration = declaration
    }
}

/// A contribution's value, or how to make it from the module, with its static type.
final class ContributedValue<Value: Sendable>: ContributionBox, @unchecked Sendable {
    enum Source: Sendable {
        /// A value given in the declaration.
        case value(Value)
        /// The module itself, converted; made with the context of the manager that enumerates it.
        case module(@Sendable (any ModuleContext) throws(ResolutionError) -> Value)
    }

    let source: Source

    init(_ source: Source, pointName: String, key: String?, moduleType: (any ModuleProtocol.Type)?,
         libraryPoint: ExtensionPointDeclaration?) {
        self.source = source
        super.init(pointName: pointName, key: key, valueType: Value.self, moduleType: moduleType, libraryPoint: libraryPoint)
    }
}
