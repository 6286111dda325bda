import Foundation

/// Checks a structurally sound manifest against the program: type names, identifiers, services,
/// requirements, cycles and configs, reporting every problem in one pass.
struct ManifestValidator {
    /// What the manager already holds, so a second manifest cannot clash with the first.
    struct Existing {
        var identifiers: [ModuleIdentifier: String] = [:]
        var services: [ObjectIdentifier: (service: String, module: ModuleIdentifier)] = [:]
        var typeNames: [String] = []
        /// Command names already declared: name -> "Type (origin)".
        var commands: [String: String] = [:]
    }

    let manifest: Manifest
    let resolver: ModuleTypeResolver
    let existing: Existing
    /// Command names the host keeps for itself.
    var reservedCommandNames: Set<String> = []

    /// The folder against which plugin library paths are resolved: the manifest's own, or the working directory.
    var manifestDirectory: URL {
        if let file = manifest.file {
            return URL(fileURLWithPath: file).deletingLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    }

    /// Names worth trying as suggestions for `name`: itself, and the SwiftPM convention of a module class
    /// named after its target (`AuthModule.AuthModule`), which covers a misspelt class or a missing prefix.
    static func guesses(for name: String) -> [String] {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var names = [name]
        if let first = parts.first { names.append("\(first).\(first)") }
        if let last = parts.last { names.append("\(last).\(last)") }
        return names
    }

    /// The registrations of the enabled modules (empty when there are errors) and every diagnostic.
    func validate() -> (registrations: [ModuleRegistration], diagnostics: [ManifestDiagnostic]) {
        var diagnostics: [ManifestDiagnostic] = []
        func report(_ severity: ManifestDiagnostic.Severity, _ code: ManifestDiagnostic.Code, _ entry: Manifest.Entry,
                    _ path: String? = nil, _ message: String, suggestion: String? = nil) {
            diagnostics.append(ManifestDiagnostic(severity, code, file: manifest.file, path: path ?? entry.path,
                                                  location: entry.location, message: message, suggestion: suggestion))
        }

        // 1. Resolve every type name.
        var resolved: [(entry: Manifest.Entry, type: any ModuleProtocol.Type)] = []
        var disabled: [ModuleIdentifier: Manifest.Entry] = [:]
        // The names a "did you mean" may offer: looked up once each, and only if some name is unknown.
        var resolvableCandidates: [String]?
        func suggestionCandidates() -> [String] {
            if let resolvableCandidates { return resolvableCandidates }
            var seen: Set<String> = []
            let names = (existing.typeNames + resolver.knownTypeNames + manifest.modules.flatMap { Self.guesses(for: $0.typeName) })
                .filter { seen.insert($0).inserted && resolver.type(named: $0) != nil }
            resolvableCandidates = names
            return names
        }
        for entry in manifest.modules {
            // A hostile manifest of a million unknown names gets a bounded report, quickly.
            if diagnostics.count >= ManifestReader.Context.maximumDiagnostics {
                diagnostics.append(ManifestDiagnostic(.error, .invalidValue, file: manifest.file, path: "", location: nil,
                                                      message: "too many problems; stopped checking after \(diagnostics.count)"))
                return ([], diagnostics)
            }
            let typePath = "\(entry.path).type"
            var loadedLibrary: String?
            if let library = entry.library, entry.enabled {
                do {
                    loadedLibrary = try PluginLoader.load(library, sha256: entry.sha256, manifestDirectory: manifestDirectory)
                } catch {
                    let note = entry.optional ? "; the module is optional, so it is left out" : ""
                    report(entry.optional ? .warning : .error, .pluginRejected, entry, "\(entry.path).library",
                           error.message + note)
                    continue
                }
            }
            guard let found = resolver.type(named: entry.typeName) else {
                if let loadedLibrary {
                    report(entry.optional ? .warning : .error, .unknownType, entry, typePath,
                           "the library \(loadedLibrary) loaded, but it defines no type named \"\(entry.typeName)\"")
                    continue
                }
                var message = "no type named \"\(entry.typeName)\" is linked into this program"
                if !entry.typeName.contains(".") {
                    message += "; type names are qualified with their Swift module, like \"AuthModule.AuthModule\""
                }
                let hint = Suggestions.closest(to: entry.typeName, in: suggestionCandidates())
                report(entry.enabled ? .error : .warning, .unknownType, entry, typePath, message,
                       suggestion: hint.map { "did you mean \"\($0)\"?" })
                continue
            }
            guard let moduleType = found as? any ModuleProtocol.Type else {
                report(entry.enabled ? .error : .warning, .notAModule, entry, typePath,
                       "\"\(entry.typeName)\" exists but does not conform to ModuleProtocol; it will not be instantiated")
                continue
            }
            if entry.enabled {
                resolved.append((entry, moduleType))
            } else {
                disabled[moduleType.moduleIdentifier] = entry
            }
        }

        // 2. Identifiers and services must be unique across this manifest and what is already registered.
        var identifiers = existing.identifiers
        var services = existing.services
        for (entry, type) in resolved {
            let identifier = type.moduleIdentifier
            if let other = identifiers[identifier] {
                report(.error, .duplicateIdentifier, entry, "\(entry.path).type",
                       "\(entry.typeName) declares module identifier \"\(identifier)\", which \(other) already declares")
            } else {
                identifiers[identifier] = "\(entry.typeName) (\(entry.path))"
            }
            for service in type.providedServices {
                if let other = services[service.key], other.module != identifier {
                    report(.error, .duplicateService, entry, "\(entry.path).type",
                           "\(entry.typeName) provides \(service.name), which module \"\(other.module)\" already provides; a service has exactly one provider")
                } else {
                    services[service.key] = (service.name, identifier)
                }
            }
        }

        // 2b. Command names must be words, unique, and not the host's own.
        var commands = existing.commands
        for (entry, type) in resolved {
            for command in ModuleCommandDeclarations.commands(of: type) {
                let owner = "\(entry.typeName) (\(entry.path))"
                if let problem = ModuleCommand.problem(withName: command.name) {
                    report(.error, .invalidCommand, entry, "\(entry.path).type",
                           "\(entry.typeName) declares a command named \(DisplayText.quoted(command.name, with: "\"")): \(problem)")
                } else if reservedCommandNames.contains(command.name) {
                    report(.error, .duplicateCommand, entry, "\(entry.path).type",
                           "\(entry.typeName) declares the command \"\(command.name)\", which is one of the host's own commands")
                } else if let other = commands[command.name] {
                    report(.error, .duplicateCommand, entry, "\(entry.path).type",
                           "\(entry.typeName) declares the command \"\(command.name)\", which \(other) already declares; a command has exactly one module")
                } else {
                    commands[command.name] = owner
                }
            }
        }

        // 3. Requirements must be present and enabled.
        for (entry, type) in resolved {
            for requirement in type.requiredModules where identifiers[requirement] == nil {
                if let disabledEntry = disabled[requirement] {
                    report(.error, .disabledRequirement, entry, nil,
                           "\(entry.typeName) requires module \"\(requirement)\", but its entry \(disabledEntry.path) (\(disabledEntry.typeName)) is disabled")
                } else {
                    let hint = Suggestions.closest(to: requirement.rawValue, in: identifiers.keys.map(\.rawValue).sorted())
                    report(.error, .missingRequirement, entry, nil,
                           "\(entry.typeName) requires module \"\(requirement)\", which no entry provides",
                           suggestion: hint.map { "did you mean \"\($0)\"?" })
                }
            }
        }

        // 4. Requirements must not form a cycle.
        let index = Dictionary(resolved.enumerated().map { ($0.element.type.moduleIdentifier, $0.offset) },
                               uniquingKeysWith: { first, _ in first })
        let cycles = CycleFinder.cycles(nodeCount: resolved.count) { node in
            resolved[node].type.requiredModules.compactMap { index[$0] }
        }
        for cycle in cycles {
            let path = cycle.map { resolved[$0].type.moduleIdentifier.rawValue }.joined(separator: " -> ")
            report(.error, .dependencyCycle, resolved[cycle[0]].entry, nil, "modules require each other in a cycle: \(path)")
        }

        // 5. Configs must decode into the module's configuration type.
        var registrations: [ModuleRegistration] = []
        for (entry, type) in resolved {
            var configuration: (any Sendable)?
            do {
                let source = entry.config ?? .empty(file: manifest.file, path: "\(entry.path).config")
                configuration = try ConfigurationDecoding.decode(for: type, from: source)
                if configuration == nil, entry.config != nil {
                    report(.warning, .unusedConfig, entry, "\(entry.path).config",
                           "\(entry.typeName) does not adopt ConfigurableModule, so this config is ignored")
                }
            } catch {
                var located = error.diagnostics
                if entry.config == nil {
                    located = located.map {
                        ManifestDiagnostic(.error, .invalidConfig, file: $0.file, path: entry.path, location: entry.location,
                                           message: "\(entry.typeName) needs a \"config\" object: \($0.message)")
                    }
                }
                diagnostics.append(contentsOf: located)
            }
            let declared = StartupDeclarations.operations(of: type).map(\.identifier)
            for name in entry.startup.operations.keys.sorted() where !declared.contains(name) {
                let list = declared.isEmpty ? "it declares no startup operations" : "it declares \(declared.map { "\"\($0)\"" }.joined(separator: ", "))"
                report(.error, .unknownOperation, entry, "\(entry.path).operations.\(name)",
                       "\(entry.typeName) has no startup operation \"\(name)\"; \(list)",
                       suggestion: Suggestions.closest(to: name, in: declared).map { "did you mean \"\($0)\"?" })
            }
            let origin = "\(manifest.file ?? "manifest"): \(entry.path)" + (entry.library.map { " (plugin \($0))" } ?? "")
            registrations.append(ModuleRegistration(type: type, typeName: entry.typeName, eager: entry.eager,
                                                    configuration: configuration, startup: entry.startup, origin: origin))
        }

        let failed = diagnostics.contains { $0.severity == .error }
        return (failed ? [] : registrations, diagnostics)
    }
}
