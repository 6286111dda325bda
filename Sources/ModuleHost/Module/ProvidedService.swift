/// A service protocol a module declares it provides, and how to get the service from a loaded module.
///
/// Declared statically, so the manager knows the provider of every service before instantiating anything. The
/// declaration names the module and returns the service from it, so the compiler checks that the module can provide
/// it: a module that stops conforming fails the build at its declaration, and nothing is asked of the runtime.
/// ```swift
/// static let providedServices: [ProvidedService] = [
///     .service(AuthService.self, from: AuthModule.self) { $0 },        // the module itself conforms
///     .service(Clock.self, from: AuthModule.self) { $0.clock },        // or hands out another object
/// ]
/// ```
public struct ProvidedService: Sendable, CustomStringConvertible {
    /// The service type's name, for messages and listings.
    ///
    /// Written out only when asked: printing a type asks the Swift runtime about its conformances, which on first
    /// use scans every loaded image, so registering and loading never do it.
    package var name: String { TypeName.of(type) }
    /// The service type.
    let type: Any.Type
    let key: ObjectIdentifier
    /// The module type named in the declaration.
    let module: any ModuleProtocol.Type
    let makeBox: @Sendable (any ModuleProtocol) -> AnyServiceBox?
    /// Whether a module type is the one named in the declaration (or a subclass of it): a module that declares a
    /// service from another module type cannot provide it.
    let canBeProvided: @Sendable (any ModuleProtocol.Type) -> Bool

    /// The module hands out `Service` through `accessor`, for example a property holding an implementation, or itself
    /// (`{ $0 }`). The compiler checks the declaration, since `accessor` must return a `Service`.
    ///
    /// An instance injected in a test in place of the module (`inject(_:for:)`, `standIn(for:providing:as:)`) is not
    /// a `Module`; it provides the service when it conforms to `Service` itself.
    ///
    /// - Parameters:
    ///   - type: The service protocol (or type) handed out.
    ///   - module: The module type that declares it, usually the declaring type itself.
    ///   - accessor: Returns the service from a loaded instance of `module`; called once, when the service is first
    ///     resolved.
    /// - Returns: The declaration, for the module's ``ModuleProtocol/providedServices``.
    public static func service<Service: Sendable, Module: ModuleProtocol>(
        _ type: Service.Type, from module: Module.Type, _ accessor: @escaping @Sendable (Module) -> Service
    ) -> ProvidedService {
        ProvidedService(type: Service.self, key: ObjectIdentifier(Service.self), module: Module.self, makeBox: { instance in
            if let instance = instance as? Module { return ServiceBox(accessor(instance)) }
            return (instance as? Service).map { ServiceBox($0) }
        }, canBeProvided: { module in
            module is Module.Type
        })
    }

    /// The service type's name.
    public var description: String { name }
}

/// A resolved service, stored already typed so a warm resolve needs no dynamic cast.
protocol AnyServiceBox: AnyObject, Sendable {}

/// The typed box. The registry keys it by `ObjectIdentifier(Service.self)` of the *static* type it was made
/// with (never of a metatype value, which may be a subclass's), so the key proves the box's type.
@usableFromInline
final class ServiceBox<Service: Sendable>: AnyServiceBox {
    @usableFromInline let value: Service

    init(_ value: Service) {
        self.value = value
    }
}
