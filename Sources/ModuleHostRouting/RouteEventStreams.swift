import ModuleHost

/// The open ``ModuleRouter/events()`` streams; a stream leaves when its consumer stops or drops it.
final class RouteEventStreams: Sendable {
    private struct Registry {
        var continuations: [UInt64: AsyncStream<ModuleRouter.Event>.Continuation] = [:]
        var nextID: UInt64 = 0
    }

    private let registry = Locked(Registry())

    /// A new stream of every event from now on.
    func open() -> AsyncStream<ModuleRouter.Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: ModuleRouter.Event.self, bufferingPolicy: .bufferingNewest(1_024))
        let id = registry.withLock { registry in
            registry.nextID += 1
            registry.continuations[registry.nextID] = continuation
            return registry.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.registry.withLock { registry in _ = registry.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends `event` to every open stream.
    func yield(_ event: ModuleRouter.Event) {
        let continuations = registry.withLock { Array($0.continuations.values) }
        for continuation in continuations {
            continuation.yield(event)
        }
    }

    /// Ends every stream.
    func finishAll() {
        let continuations = registry.withLock { registry in
            defer { registry.continuations.removeAll() }
            return Array(registry.continuations.values)
        }
        for continuation in continuations {
            continuation.finish()
        }
    }
}
