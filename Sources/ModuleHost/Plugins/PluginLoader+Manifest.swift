import Foundation

extension PluginLoader {
    /// Loads the library of every enabled entry that names one: the explicit step that comes before validation,
    /// which then runs no plugin code itself. A refused library is reported into `sink` (a warning for an
    /// optional entry, which is then left out; an error otherwise) and its entry is skipped by validation.
    static func loadLibraries(of manifest: Manifest, into sink: inout DiagnosticSink) -> PluginLibraries {
        var libraries = PluginLibraries()
        for (index, entry) in manifest.modules.enumerated() {
            guard let library = entry.library, entry.enabled else { continue }
            if sink.isFull { break }
            do {
                libraries.loaded[index] = try load(library, sha256: entry.sha256, manifestDirectory: manifest.directory)
            } catch {
                let note = entry.optional ? "; the module is optional, so it is left out" : ""
                sink.report(entry.optional ? .warning : .error, .pluginRejected, path: "\(entry.path).library",
                            location: entry.location, error.message + note)
                libraries.refused.insert(index)
            }
        }
        return libraries
    }
}
