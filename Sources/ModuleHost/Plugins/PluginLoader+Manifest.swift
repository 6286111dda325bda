#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension PluginLoader {
    /// Checks the library of every enabled entry that names one, by reading it (no code of it runs), then, when
    /// `load` is true (registering for real, not validating), loads those that passed. `isTypeKnown` says whether a
    /// type name already resolves in this process. A refused library is reported into `sink` (a warning for an
    /// optional entry, which is then left out; an error otherwise) and its entry is skipped by validation.
    static func prepareLibraries(of manifest: Manifest, load: Bool, isTypeKnown: (String) -> Bool,
                                 into sink: inout DiagnosticSink) -> PluginLibraries {
        var libraries = PluginLibraries()
        // Most manifests name no library: then there is nothing to check, and nothing to build for it.
        guard manifest.modules.contains(where: { $0.library != nil }) else { return libraries }
        func refuse(_ index: Int, _ error: PluginError) {
            let entry = manifest.modules[index]
            let note = entry.optional ? "; the module is optional, so it is left out" : ""
            sink.report(entry.optional ? .warning : .error, .pluginRejected, path: "\(entry.path).library",
                        location: entry.location, error.message + note)
            libraries.refused.insert(index)
        }
        var inspected = inspectEach(of: manifest, refuse: refuse, isFull: { sink.isFull })
        for (index, error) in duplicateTypes(in: inspected, of: manifest, isTypeKnown: isTypeKnown) {
            if let duplicate = inspected.removeValue(forKey: index) { close(duplicate.library.descriptor) }
            refuse(index, error)
        }
        for (index, found) in inspected.sorted(by: { $0.key < $1.key }) {
            guard load else {
                close(found.library.descriptor)
                libraries.inspected[index] = found.library.resolved
                continue
            }
            do throws(PluginError) {
                try Self.load(found.library)
                libraries.loaded[index] = found.library.resolved
            } catch {
                refuse(index, error)
            }
        }
        return libraries
    }

    /// A library that passed every check of its own, still open, with the types it defines.
    struct InspectedLibrary {
        let library: OpenedLibrary
        let types: Set<String>
    }

    /// Opens and inspects each entry's library; a refusal goes to `refuse`.
    private static func inspectEach(of manifest: Manifest, refuse: (Int, PluginError) -> Void, isFull: () -> Bool) -> [Int: InspectedLibrary] {
        var inspected: [Int: InspectedLibrary] = [:]
        for (index, entry) in manifest.modules.enumerated() {
            guard let library = entry.library, entry.enabled else { continue }
            if isFull() { break }
            do throws(PluginError) {
                let opened = try open(library, sha256: entry.sha256, manifestDirectory: manifest.directory)
                do throws(PluginError) {
                    let types = try PluginInspector.inspect(descriptor: opened.descriptor, size: opened.size, path: opened.resolved,
                                                            library: library, typeName: entry.typeName)
                    inspected[index] = InspectedLibrary(library: opened, types: types)
                } catch {
                    close(opened.descriptor)
                    throw error
                }
            } catch {
                refuse(index, error)
            }
        }
        return inspected
    }

    /// The entries whose type is also defined by another of the manifest's libraries, or (for a library not
    /// loaded yet) already resolves in this process: which of the definitions the entry would get is unknowable.
    private static func duplicateTypes(in inspected: [Int: InspectedLibrary], of manifest: Manifest,
                                       isTypeKnown: (String) -> Bool) -> [(Int, PluginError)] {
        var errors: [(Int, PluginError)] = []
        for (index, found) in inspected.sorted(by: { $0.key < $1.key }) {
            let typeName = manifest.modules[index].typeName
            let others = Set(inspected.values.filter { $0.library.resolved != found.library.resolved && $0.types.contains(typeName) }
                .map(\.library.library)).sorted()
            if !others.isEmpty {
                errors.append((index, PluginError(.duplicateType, library: found.library.library, message:
                    "the type \"\(typeName)\" is defined in both \(found.library.library) and \(others.joined(separator: " and ")), "
                    + "so which one this entry gets cannot be told; rename the type in one of the libraries")))
            } else if !isLoaded(found.library.resolved) && isTypeKnown(typeName) {
                errors.append((index, PluginError(.duplicateType, library: found.library.library, message:
                    "the type \"\(typeName)\" that \(found.library.library) defines is already defined in this program "
                    + "(by the host or by a plugin loaded before), so which one this entry gets cannot be told; rename the type")))
            }
        }
        return errors
    }
}
