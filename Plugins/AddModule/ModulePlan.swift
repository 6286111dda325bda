import Foundation
import PackagePlugin

/// What `add-module` writes, checked in full before anything is written.
struct ModulePlan {
    let name: String
    let folder: URL
    /// Whether the module depends on ModuleHostState.
    let keepsState: Bool
    /// New files, by path relative to the package.
    let files: [(path: String, text: String)]
    let packageManifest: String
    let modulesManifest: [UInt8]
    /// Where the two manifests are written: Package.swift and modules.json, or the files they link to.
    let packageURL: URL, modulesURL: URL

    var interface: String { name + "Interface" }
    var module: String { name + "Module" }
    var tests: String { name + "ModuleTests" }

    /// The three targets a module named `name` adds.
    static func targets(of name: String) -> [String] { [name + "Interface", name + "Module", name + "ModuleTests"] }

    /// Their folders, which must not exist before.
    static func folders(of name: String) -> [String] {
        zip(["Sources", "Sources", "Tests"], targets(of: name)).map { "\($0)/\($1)" }
    }

    init(name: String, package: Package, host requestedHost: String?, keepsState: Bool) throws {
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first), name.count <= 64,
              name.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) }) else {
            throw AddModuleError("\"\(name)\" is not a module name: one word of ASCII letters and digits, starting with a capital letter (Notes)")
        }
        self.name = name
        self.keepsState = keepsState
        folder = package.directoryURL
        let host = try Self.host(named: requestedHost, in: package)
        let source = ModuleHostSource(package: package)
        // Compared without case: `NOTES` beside `Notes` would share folders on a case-insensitive disk, and the
        // module identifier, which is lower case.
        for target in Self.targets(of: name) {
            if let existing = package.targets.first(where: { $0.name.lowercased() == target.lowercased() }) {
                throw AddModuleError("the package already has a target named \(existing.name); choose another name")
            }
        }
        let identifier = "com.\(package.displayName.lowercased()).\(name.lowercased())"
        if let user = Self.sourceFile(in: package, naming: identifier) {
            throw AddModuleError("the identifier \(identifier) is already used, in \(user); choose another name")
        }
        files = ModuleFiles(name: name, identifier: identifier).all
        for file in files where FileManager.default.fileExists(atPath: folder.appending(path: file.path).path(percentEncoded: false)) {
            throw AddModuleError("\(file.path) already exists; nothing was written")
        }
        for directory in Self.folders(of: name)
        where FileManager.default.fileExists(atPath: folder.appending(path: directory).path(percentEncoded: false)) {
            throw AddModuleError("the folder \(directory) already exists; nothing was written")
        }
        packageURL = try EditedFile.target(of: package.directoryURL.appending(path: "Package.swift"), mustExist: true)
        packageManifest = try PackageManifestEdit(text: try String(contentsOf: packageURL, encoding: .utf8))
            .adding(name: name, host: host.name, source: source, keepsState: keepsState)
        modulesURL = try EditedFile.target(of: package.directoryURL.appending(path: "modules.json"), mustExist: false)
        modulesManifest = try ModulesManifestEdit.adding("\(name)Module.\(name)Module", to: try Self.read(modulesURL))
    }

    /// The first Swift file under `Sources/` that holds `identifier` as a string literal, relative to the package.
    private static func sourceFile(in package: Package, naming identifier: String) -> String? {
        let sources = package.directoryURL.appending(path: "Sources")
        guard let files = FileManager.default.enumerator(atPath: sources.path(percentEncoded: false)) else { return nil }
        let literal = Data("\"\(identifier)\"".utf8)
        for case let file as String in files where file.hasSuffix(".swift") {
            if let data = FileManager.default.contents(atPath: sources.appending(path: file).path(percentEncoded: false)),
               data.range(of: literal) != nil {
                return "Sources/" + file
            }
        }
        return nil
    }

    /// The manifest's bytes; an empty manifest when there is none. Anything else that cannot be read is refused, so
    /// a file is never replaced by one that lost its entries.
    private static func read(_ url: URL) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path(percentEncoded: false), isDirectory: &isDirectory) else {
            return Array(#"{"modules": []}"#.utf8)
        }
        guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: url.path(percentEncoded: false)) else {
            throw AddModuleError("\(url.lastPathComponent) cannot be read as a file; nothing was written")
        }
        return Array(data)
    }

    /// The host target: the one named, or the package's one executable target that depends on ModuleHost.
    private static func host(named requested: String?, in package: Package) throws -> Target {
        if let requested {
            guard let target = package.targets.first(where: { $0.name == requested }) else {
                throw AddModuleError("the package has no target named \(requested)")
            }
            return target
        }
        let hosts = package.targets.filter { target in
            (target as? SwiftSourceModuleTarget)?.kind == .executable && target.dependencies.contains { dependency in
                switch dependency {
                case .target(let target): target.name == "ModuleHost"
                case .product(let product): product.name == "ModuleHost"
                @unknown default: false
                }
            }
        }
        guard hosts.count == 1, let host = hosts.first else {
            throw AddModuleError("cannot tell which target hosts the modules (\(hosts.isEmpty ? "no executable target depends on ModuleHost" : hosts.map(\.name).joined(separator: ", "))); name it with --host <target>")
        }
        return host
    }

    /// Writes the new files and the two manifests: the manifests' new contents first, beside them (where a folder
    /// that cannot be written to is found before anything is), then the new files, then the manifests are renamed
    /// into place.
    func write() throws {
        let package = try EditedFile.prepare(packageURL, with: Data(packageManifest.utf8))
        let modules: EditedFile.Prepared
        do {
            modules = try EditedFile.prepare(modulesURL, with: Data(modulesManifest))
        } catch {
            package.discard()
            throw error
        }
        do {
            for file in files {
                let url = folder.appending(path: file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                guard FileManager.default.createFile(atPath: url.path(percentEncoded: false), contents: Data(file.text.utf8)) else {
                    throw AddModuleError("cannot write \(file.path)")
                }
            }
        } catch {
            package.discard()
            modules.discard()
            // The three folders did not exist (checked before): what was created in them goes with them.
            for created in Self.folders(of: name) {
                try? FileManager.default.removeItem(at: folder.appending(path: created))
            }
            throw error
        }
        try package.commit()
        try modules.commit()
    }

    var summary: String {
        (["Added the module \(name):"] + files.map { "  created \($0.path)" }
            + ["  Package.swift: the targets \(interface), \(module) and \(tests), and the host's dependency on \(module)",
               "  modules.json: \"\(module).\(module)\""]
            + (keepsState ? ["  \(module) depends on ModuleHostState, to keep files between runs"]
                : ["A module that keeps files between runs needs ModuleHostState: add it to \(module)'s dependencies (--state does)"])
            + ["Build and test: swift build && swift test --filter \(tests)"]).joined(separator: "\n")
    }
}
