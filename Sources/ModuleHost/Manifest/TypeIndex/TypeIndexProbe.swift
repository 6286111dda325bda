/// A module type the type index looks itself up with when it is built, to prove that it reads the runtime's
/// records as the compiler wrote them: found by name, it must be the same type with the same witness table as
/// the compiler's own `any ModuleProtocol.Type`, and its services must come out as the compiler makes them.
/// It is never registered: no manifest names it and the index is its only reader.
final class TypeIndexProbeModule: ModuleProtocol, TypeIndexProbeService, TypeIndexProbeClassService {
    static let moduleIdentifier: ModuleIdentifier = "modulehost.type-index-probe"
    static let probeValue = 0x5EED

    init() {}
    convenience init(context: any ModuleContext) { self.init() }

    func probe() -> Int { Self.probeValue }
}

/// A service the probe provides, held in an opaque existential container.
protocol TypeIndexProbeService: Sendable {
    func probe() -> Int
}

/// A service the probe provides, held in a class existential.
protocol TypeIndexProbeClassService: AnyObject, Sendable {
    func probe() -> Int
}
