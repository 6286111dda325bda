/// The warm path of `resolve(Service.self)`: the box cached for a service, found by the identity of its static
/// type. The bridge reads it from its inlinable `resolve`, so a warm resolve is one call and a typed downcast,
/// with no generic code run unspecialized behind the registry's protocol.
@usableFromInline
protocol WarmServiceLookup: AnyObject, Sendable {
    /// The `ServiceBox<Service>` cached (or injected) for the service whose static type has identity `key`.
    func cachedServiceBox(_ key: ObjectIdentifier) -> AnyObject?
}
