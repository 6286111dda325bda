/// The parts of a ``ModuleManager`` that listing or checking modules never needs, each made the first time it is
/// asked for (from any thread) and the same one after: the ``Initiator``, whose default width counts the active
/// processors, and the parts that libraries built on ModuleHost attach to a manager (ModuleHostRouting's router).
///
/// Not generic, and holding the parts as plain references, so that a manager that never asks for them makes no
/// type metadata for them either (the first use of a generic type can cost the runtime a search of every
/// conformance in the process).
final class LazyManagerParts: @unchecked Sendable {
    // `@unchecked`: `madeInitiator` and `attached` are only read and written with `lock` held.
    private let lock = Condition()
    private let makeInitiator: @Sendable () -> Initiator
    private var madeInitiator: Initiator?
    private var attached: [ObjectIdentifier: any ManagerPart] = [:]

    init(initiator: @escaping @Sendable () -> Initiator) {
        makeInitiator = initiator
    }

    /// The manager is going away: a startup it began is cancelled (``Initiator/cancelRunning()``).
    deinit {
        madeInitiator?.cancelRunning()
    }

    var initiator: Initiator {
        lock.lock()
        defer { lock.unlock() }
        if let madeInitiator { return madeInitiator }
        let initiator = makeInitiator()
        madeInitiator = initiator
        return initiator
    }

    /// The part of type `Part`, made by `make` the first time it is asked for. `make` runs with the lock held, so it
    /// must not ask this manager for a part, nor for the initiator.
    func part<Part: ManagerPart>(_ type: Part.Type, make: () -> Part) -> Part {
        lock.lock()
        defer { lock.unlock() }
        if let made = attached[ObjectIdentifier(type)] { return unsafeDowncast(made, to: Part.self) }
        let part = make()
        attached[ObjectIdentifier(type)] = part
        return part
    }

    /// The parts made so far.
    var attachedParts: [any ManagerPart] {
        lock.lock()
        defer { lock.unlock() }
        return Array(attached.values)
    }
}

/// A part that a library built on ModuleHost attaches to a ``ModuleManager`` (``ModuleManager/part(_:make:)``):
/// made on first use, kept as long as the manager, and told when the registrations change.
package protocol ManagerPart: AnyObject, Sendable {
    /// Called after modules were registered, so a part that derives something from the registrations (a table of
    /// routes) reads them again.
    func registrationsChanged()
}

extension ModuleManager {
    /// The part of type `Part` attached to this manager, made by `make` from the registry the first time any
    /// caller asks (the same one after).
    package func part<Part: ManagerPart>(_ type: Part.Type, make: (ModuleRegistry) -> Part) -> Part {
        parts.part(type) { make(registry) }
    }
}
