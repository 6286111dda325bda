extension ManifestValidator {
    /// Pass 2b: every module is the module its service declarations name. A module that declares a service from
    /// another module type would register and load, and fail only when the service is first resolved.
    func checkProvidedServices(of resolved: [ResolvedEntry], into sink: inout DiagnosticSink) {
        for item in resolved where !sink.isFull {
            let type = item.type
            var entry: Manifest.Entry { item.entry }  // read only for a problem
            for service in item.providedServices where !service.canBeProvided(type) {
                let declared = TypeName.of(service.module)
                report(.error, .serviceNotProvided, entry, path: "\(entry.path).type",
                       "\(entry.typeName) declares \(service.name) from \(declared), which it is not, so resolving it would fail",
                       suggestion: "name \(entry.typeName) in the declaration: .service(…, from: \(entry.typeName).self) { … }",
                       into: &sink)
                if sink.isFull { return }
            }
        }
    }
}
