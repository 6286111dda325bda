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
    let makeBox: @Sendable (any ModuleProtocol) -> ServiceBox?
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
            // A class check and a downcast, not `as? Module`: unspecialized here, the optional that makes would
            // have the runtime build `Optional<Module>` on the first resolve of every service.
            guard Swift.type(of: instance) is Module.Type else { return boxIfConforming(instance, as: Service.self) }
            return ServiceBox(accessor(unsafeDowncast(instance, to: Module.self)))
        }, canBeProvided: { module in
            module is Module.Type
        })
    }

    /// The service type's name.
    public var description: String { name }

    /// An injected stand-in's box, when the stand-in conforms to the service itself.
    @inline(never)
    private static func boxIfConforming<Service: Sendable>(_ instance: any ModuleProtocol,
                                                           as _: Service.Type) -> ServiceBox? {
        (instance as? Service).map { ServiceBox($0) }
    }
}

/// A resolved service, stored with the static type it was made with, so a resolve reads it back without a dynamic
/// cast.
///
/// Not generic: a generic box would make the runtime build a class for every service type on its first resolve,
/// which at a thousand services is a noticeable part of an app's first start. The registry keys a box by
/// `ObjectIdentifier(Service.self)` of the *static* type it was made with (never of a metatype value, which may be a
/// subclass's), so the key proves the type ``value(as:)`` reads.
final class ServiceBox: @unchecked Sendable {
    // Unchecked: the storage is written once, in `init`, and holds a `Sendable` value.
    /// The static type the value was stored as.
    let type: Any.Type
    /// The value, initialized as `type`.
    let storage: UnsafeMutableRawPointer

    init<Service: Sendable>(_ value: Service) {
        type = Service.self
        storage = .allocate(byteCount: MemoryLayout<Service>.size, alignment: MemoryLayout<Service>.alignment)
        storage.initializeMemory(as: Service.self, to: value)
    }

    /// The value; `Service` must be the type it was stored as (the caller's key proves it).
    func value<Service: Sendable>(as _: Service.Type) -> Service {
        storage.assumingMemoryBound(to: Service.self).pointee
    }

    /// Whether the value was stored as `Service`.
    func holds<Service: Sendable>(_: Service.Type) -> Bool {
        type == Service.self
    }

    deinit {
        func destroy<Value>(_: Value.Type) {
            storage.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
        }
        _openExistential(type, do: destroy)
        storage.deallocate()
    }
}
