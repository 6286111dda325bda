extension ManifestValidator {
    /// Pass 2: module identifiers and services are unique across this manifest and what is already registered.
    /// Returns every identifier taken (the existing ones included), each with its owner.
    func checkUniqueness(of resolved: [ResolvedEntry], into sink: inout DiagnosticSink) -> [ModuleIdentifier: ModuleOwner] {
        var identifiers = existing.identifiers
        var services = existing.services
        identifiers.reserveCapacity(identifiers.count + resolved.count)
        services.reserveCapacity(services.count + resolved.count)
        for item in resolved {
            if sink.isFull { break }
            let identifier = item.identifier
            var entry: Manifest.Entry { item.entry }  // copied only for a problem
            if let other = identifiers[identifier] {
                report(.error, .duplicateIdentifier, entry, path: "\(entry.path).type",
                       "\(entry.typeName) declares module identifier \"\(identifier)\", which \(other) already declares", into: &sink)
            } else {
                identifiers[identifier] = ModuleOwner(typeName: item.typeName, place: item.path)
            }
            var declared = Set<ObjectIdentifier>()  // filled only for a module that declares several services
            for service in item.providedServices {
                if item.providedServices.count > 1, !declared.insert(service.key).inserted {
                    report(.error, .duplicateService, entry, path: "\(entry.path).type",
                           "\(entry.typeName) declares \(service.name) twice; a service has exactly one provider", into: &sink)
                } else if let other = services[service.key], other != identifier {
                    report(.error, .duplicateService, entry, path: "\(entry.path).type",
                           "\(entry.typeName) provides \(service.name), which module \"\(other)\" already provides; a service has exactly one provider",
                           into: &sink)
                } else {
                    services[service.key] = identifier
                }
            }
        }
        return identifiers
    }

    /// Pass 3: command names are single words, unique across modules, and not the host's own.
    func checkCommandNames(of resolved: [ResolvedEntry], into sink: inout DiagnosticSink) {
        var commands = existing.commands
        for item in resolved where !sink.isFull {
            var entry: Manifest.Entry { item.entry }
            for command in Contribution.values(of: item.contributions, for: ModuleCommand.point) {
                let path = "\(entry.path).type"
                if let problem = ModuleCommand.problem(withName: command.name) {
                    report(.error, .invalidCommand, entry, path: path,
                           "\(entry.typeName) declares a command named \(DisplayText.quoted(command.name, with: "\"")): \(problem)",
                           into: &sink)
                } else if reservedCommandNames.contains(command.name) {
                    report(.error, .duplicateCommand, entry, path: path,
                           "\(entry.typeName) declares the command \"\(command.name)\", which is one of the host's own commands",
                           into: &sink)
                } else if let other = commands[command.name] {
                    report(.error, .duplicateCommand, entry, path: path,
                           "\(entry.typeName) declares the command \"\(command.name)\", which \(other) already declares; a command has exactly one module",
                           into: &sink)
                } else {
                    commands[command.name] = ModuleOwner(typeName: entry.typeName, place: entry.path)
                }
            }
        }
    }
}
