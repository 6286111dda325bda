/// The registered modules, in registration order, with the provider of every service. Rows are only added.
///
/// A class, used only under the registry's lock: every load reads it, and reading a struct of half a dozen tables
/// from the registry copied (retained) them all each time.
final class RegistrationTable {
    /// The module that provides a service (with its position in ``ordered``), and how it declared it.
    struct Provider {
        var module: ModuleIdentifier
        var position: Int
        var service: ProvidedService
    }

    /// Every registration, in registration order (manifest order, then code order).
    private(set) var ordered: [ModuleRegistration] = []
    /// Where each registration is in `ordered`.
    private var positions: [ModuleIdentifier: Int] = [:]
    private var providers: [ObjectIdentifier: Provider] = [:]
    /// The extension points declared, by name: the library's own, then the host's.
    private(set) var extensionPoints = Contribution.builtInPoints
    /// The keys contributed to the host's points that require unique keys, and command names, by point, each with
    /// its owner: checked again when a batch is added.
    private(set) var contributionKeys: [String: [String: String]] = [:]
    /// The routing settings of the first manifest that named any, with that manifest's name.
    private(set) var routing: (settings: RoutingSettings, origin: String)?

    /// What makes ``add(_:routing:)`` refuse a batch: possible only when another registration raced in after
    /// the batch was validated.
    enum Clash: Equatable {
        case identifier(ModuleIdentifier)
        /// A key taken on a point that requires unique keys; the message names both modules.
        case contributionKey(String)
        /// What a library point's check finds against what registered meanwhile (two routes for the same links).
        case libraryCheck(ManifestDiagnostic)
    }

    /// Adds `newRegistrations`, in order, unless one's identifier or one of its unique contribution keys is taken, or
    /// a library point's check fails against what is registered; returns what clashes, in which case nothing is added.
    func add(_ newRegistrations: [ModuleRegistration],
                      routing: (settings: RoutingSettings, origin: String)? = nil) -> [Clash] {
        let keys = ContributionKeys.collect(newRegistrations, against: contributionKeys, points: extensionPoints)
        let clashes = newRegistrations.map(\.identifier).filter { positions[$0] != nil }.map(Clash.identifier)
            + keys.clashes.map(Clash.contributionKey)
        guard clashes.isEmpty else { return clashes }
        let checked = ContributionCheck.recheck(newRegistrations, against: ordered)
        guard checked.isEmpty else { return checked.map(Clash.libraryCheck) }
        ContributionKeys.insert(keys.added, into: &contributionKeys)
        if self.routing == nil { self.routing = routing }
        ordered.reserveCapacity(ordered.count + newRegistrations.count)
        positions.reserveCapacity(ordered.count + newRegistrations.count)
        providers.reserveCapacity(providers.count + newRegistrations.reduce(0) { $0 + $1.providedServices.count })
        for registration in newRegistrations {
            positions[registration.identifier] = ordered.count
            ordered.append(registration)
            for service in registration.providedServices where providers[service.key] == nil {
                providers[service.key] = Provider(module: registration.identifier, position: ordered.count - 1, service: service)
            }
        }
        return []
    }

    /// Declares `point`; false when its name is taken by a point of another value type or uniqueness, or is in the
    /// namespace of ModuleHost and its libraries (`modulehost.`) without being one of their points.
    func declare(_ point: ExtensionPointDeclaration) -> Bool {
        if point.name.hasPrefix("modulehost."), point.check == nil, extensionPoints[point.name] == nil { return false }
        guard let existing = extensionPoints[point.name] else {
            extensionPoints[point.name] = point
            return true
        }
        return existing.valueType == point.valueType && existing.requiresUniqueKeys == point.requiresUniqueKeys
    }

    /// The registration of `identifier`, if it is registered.
    subscript(identifier: ModuleIdentifier) -> ModuleRegistration? {
        positions[identifier].map { ordered[$0] }
    }

    /// Where `identifier`'s registration is in ``ordered``, if it is registered.
    func position(of identifier: ModuleIdentifier) -> Int? {
        positions[identifier]
    }

    /// Identifiers in registration order.
    var order: [ModuleIdentifier] {
        ordered.map(\.identifier)
    }

    /// The provider of the service whose type has identity `key`.
    func provider(of key: ObjectIdentifier) -> Provider? {
        providers[key]
    }

    /// The names of every provided service, sorted.
    var serviceNames: [String] {
        providers.values.map(\.service.name).sorted()
    }

    /// Identities of the services `identifier` provides.
    func serviceKeys(providedBy identifier: ModuleIdentifier) -> [ObjectIdentifier] {
        providers.filter { $0.value.module == identifier }.map(\.key)
    }

    /// `identifier` and every registered module that requires it, directly or not.
    func modulesRequiring(_ identifier: ModuleIdentifier) -> Set<ModuleIdentifier> {
        var dependents: [ModuleIdentifier: [ModuleIdentifier]] = [:]
        for registration in ordered {
            for requirement in registration.requiredModules {
                dependents[requirement, default: []].append(registration.identifier)
            }
        }
        return Self.closure(of: [identifier]) { dependents[$0] ?? [] }
    }

    /// `identifiers` and every module they require, directly or not.
    func requirements(of identifiers: some Sequence<ModuleIdentifier>) -> Set<ModuleIdentifier> {
        Self.closure(of: Array(identifiers)) { self[$0]?.requiredModules ?? [] }
    }

    private static func closure(of start: [ModuleIdentifier],
                                _ next: (ModuleIdentifier) -> [ModuleIdentifier]) -> Set<ModuleIdentifier> {
        var found = Set(start)
        var pending = start
        while let current = pending.popLast() {
            for neighbour in next(current) where found.insert(neighbour).inserted {
                pending.append(neighbour)
            }
        }
        return found
    }

    /// What validation of a new manifest must not clash with.
    func registeredModules() -> RegisteredModules {
        var registered = RegisteredModules()
        for registration in ordered {
            let owner = ModuleOwner(typeName: registration.typeName, place: registration.origin)
            registered.identifiers[registration.identifier] = owner
            registered.typeNames.append(registration.typeName)
            for command in Contribution.values(of: registration.contributions, for: ModuleCommand.point) {
                registered.commands[command.name] = owner
            }
        }
        registered.registrations = ordered
        registered.routing = routing
        registered.extensionPoints = extensionPoints
        registered.contributionKeys = contributionKeys
        for (key, provider) in providers {
            registered.services[key] = provider.module
        }
        return registered
    }

    /// Every service declared by a registered module, with its provider, in registration order.
    func serviceDescriptions() -> [ModuleBridge.ServiceDescription] {
        ordered.flatMap { registration in
            registration.providedServices.compactMap { service in
                providers[service.key]?.module == registration.identifier
                    ? ModuleBridge.ServiceDescription(name: service.name, provider: registration.identifier) : nil
            }
        }
    }
}
