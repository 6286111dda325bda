/// A service protocol a module declares it provides, and how to get the service from a loaded module.
///
/// Declared statically, so the manager knows the provider of every service before instantiating anything:
/// ```swift
/// static let providedServices: [ProvidedService] = [
///     .service(AuthService.self),                                  // the module itself conforms
///     .service(Clock.self, from: TimeModule.self) { $0.clock },    // or hands out another object
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
    let makeBox: @Sendable (any ModuleProtocol) -> AnyServiceBox?
    /// Whether a module type can provide the service (`nil`: cannot be told without an instance). Asked by
    /// `validate` and by registration in code, not by registering a manifest: for `.service(P.self)` it is a
    /// conformance question, which the first time scans every conformance record in the process.
    let canBeProvided: @Sendable (any ModuleProtocol.Type) -> Bool?

    /// The module itself provides `Service`: it must conform to it.
    ///
    /// Whether it does is checked when the manifest is validated, and answered by a cast when the service is first
    /// resolved. That cast is a conformance question to the Swift runtime, which the first time scans every
    /// conformance record in the process, so its cost grows with the program. The form that names the module,
    /// `.service(P.self, from: M.self) { $0 }`, is checked by the compiler instead and asks nothing at run time.
    ///
    /// - Parameter type: The service protocol (or type) the module conforms to.
    /// - Returns: The declaration, for the module's ``ModuleProtocol/providedServices``.
    public static func service<Service: Sendable>(_ type: Service.Type) -> ProvidedService {
        ProvidedService(type: Service.self, key: ObjectIdentifier(Service.self), makeBox: { module in
            (module as? Service).map { ServiceBox($0) }
        }, canBeProvided: { module in
            ProtocolConformance.does(module, conformTo: Service.self)
        })
    }

    /// The module hands out `Service` through `accessor`, for example a property holding an implementation, or itself
    /// (`{ $0 }`): the form the compiler checks, since `accessor` must return a `Service`.
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
        ProvidedService(type: Service.self, key: ObjectIdentifier(Service.self), makeBox: { instance in
            (instance as? Module).map { ServiceBox(accessor($0)) }
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
