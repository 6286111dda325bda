extension ManifestValidator {
    /// Pass 2b (validation only): every module can provide the services it lists. A module that lists a protocol
    /// it does not conform to would register and load, and fail only when the service is first resolved.
    func checkProvidedServices(of resolved: [ResolvedEntry], into sink: inout DiagnosticSink) {
        for item in resolved where !sink.isFull {
            let (entry, type) = (item.entry, item.type)
            for service in type.providedServices where service.canBeProvided(type) == false {
                report(.error, .serviceNotProvided, entry, path: "\(entry.path).type",
                       "\(entry.typeName) lists \(service.name) in providedServices but does not conform to it, so resolving it would fail",
                       suggestion: "make \(entry.typeName) conform to \(service.name), or remove it from providedServices",
                       into: &sink)
                if sink.isFull { return }
            }
        }
    }
}
