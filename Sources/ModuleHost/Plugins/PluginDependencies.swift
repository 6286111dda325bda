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
internal import ModuleHostBinaryImage

/// Which libraries loading a plugin may bring in with it. Only the plugin itself is checked as a plugin (its mark,
/// its types, its symbols), so every library it needs (`DT_NEEDED`, and the filters the loader loads the same way)
/// must be one the host trusts as it trusts its own: one it has loaded already, or one the dynamic loader takes from
/// a folder the host loads its own libraries from (the Swift runtime's, the system's). A plugin is refused before
/// anything is loaded when one of the libraries it needs is named by a path or with a token, when a folder the loader
/// would search for one before the system's own (the plugin's `DT_RPATH` or `DT_RUNPATH`, `LD_LIBRARY_PATH`; an empty
/// entry is the working directory) is not one of the host's, whether or not the library is there now, or when the
/// library is in none of the host's folders. Such a library could have been compiled against another ModuleHost,
/// and its code would run. Read from the file on Linux; a Mach-O plugin's libraries are not read.
struct PluginDependencies {
    /// Whether a library of this name is in the process already, so loading the plugin loads nothing for it.
    var isLoaded: (String) -> Bool = Self.isLoadedInProcess
    /// The folders the host trusts to load from, each as `realpath` gives it.
    var trustedFolders: () -> Set<String> = { Self.hostFolders }
    /// `LD_LIBRARY_PATH`'s folders, which the loader searches before `DT_RUNPATH`'s (it splits at `:` and `;`, and
    /// reads an empty entry as the working directory).
    var libraryPath: () -> [String] = { Self.startingLibraryPath }

    /// `LD_LIBRARY_PATH` as the loader read it, when the process started (read once, on first use, before any plugin).
    static let startingLibraryPath = getenv("LD_LIBRARY_PATH").map { splitLibraryPath(String(cString: $0)) } ?? []

    /// The most distinct folders a plugin may have the loader search, so the check's work stays small.
    static let folderLimit = 64

    /// `LD_LIBRARY_PATH`'s value split as the loader splits it: at `:` and `;`, empty entries kept.
    static func splitLibraryPath(_ value: String) -> [String] {
        value.split(omittingEmptySubsequences: false) { $0 == ":" || $0 == ";" }.map(String.init)
    }
    var fileExists: (String) -> Bool = { access($0, F_OK) == 0 }
    /// A folder as the trusted ones are written: its links and `..` resolved; `nil` for one that is missing or that
    /// others may write to.
    var canonical: (String) -> String? = Self.canonical

    /// What the loader takes `$ORIGIN` for: the plugin is loaded through its descriptor on Linux
    /// (`/proc/self/fd/<n>`), so `$ORIGIN` is `/proc/self/fd`, and `$ORIGIN/..` leads out of it.
    static let origin = "/proc/self/fd"

    /// Refuses the first library in `dependencies` that loading the plugin would bring in from outside the
    /// host's folders.
    ///
    /// - Parameters:
    ///   - dependencies: What the plugin's file says it needs and where to look.
    ///   - path: The plugin's path, for the message.
    ///   - library: The library as the manifest names it.
    /// - Throws: `PluginError` with code `unsafeDependency`.
    func check(_ dependencies: ELFImage.Dependencies, path: String, library: String) throws(PluginError) {
        func refuse(_ name: String, _ why: String) -> PluginError {
            PluginError(.unsafeDependency, library: library, message:
                "\(path) needs the library \(name), \(why); only the plugin itself is checked before it loads, so it was not loaded: "
                + "link \(name) into the plugin, or install it where the host's own libraries are")
        }
        if let named = dependencies.needed.first(where: { $0.contains("/") || $0.contains("$") }) {
            throw refuse(named, "named by a path or with a token, which the loader looks for outside the host's library folders")
        }
        var seen: Set<String> = []
        let missing = dependencies.needed.filter { seen.insert($0).inserted && !isLoaded($0) }
        guard let first = missing.first else { return }
        let trusted = trustedFolders()
        // `$ORIGIN` is the plugin's own in its search paths; in `LD_LIBRARY_PATH` it would be the executable's.
        let own = { (entry: String) in entry.replacing("${ORIGIN}", with: Self.origin).replacing("$ORIGIN", with: Self.origin) }
        var entries: [String] = []
        var distinct: Set<String> = []
        for entry in (dependencies.runpath.isEmpty ? dependencies.rpath.map(own) : []) + libraryPath() + dependencies.runpath.map(own)
        where distinct.insert(entry).inserted {
            entries.append(entry)
        }
        guard entries.count <= Self.folderLimit else {
            throw refuse(first, "with more than \(Self.folderLimit) folders for the loader to search")
        }
        var folders: [String] = []
        for expanded in entries {
            guard !expanded.contains("$") else { throw refuse(first, "looked for in \(expanded), whose token the host does not expand") }
            let resolved = canonical(expanded.isEmpty ? "." : expanded)
            // The loader's `$ORIGIN` of a plugin loaded through its descriptor: a folder of descriptors, no library.
            if let resolved, resolved.wholeMatch(of: #/\/proc\/[0-9]+\/fd/#) != nil { continue }
            guard let resolved, trusted.contains(resolved) else {
                throw refuse(first, "which the loader would look for in \(expanded.isEmpty ? "the working directory" : expanded) first, "
                             + "not a folder of the host's libraries")
            }
            folders.append(resolved)
        }
        folders += trusted.sorted()
        if let absent = missing.first(where: { name in !folders.contains { fileExists($0 + "/" + name) } }) {
            throw refuse(absent, "which is in none of the host's library folders")
        }
    }

    private static func isLoadedInProcess(_ name: String) -> Bool {
        guard let handle = dlopen(name, RTLD_NOLOAD | RTLD_LAZY) else { return false }
        dlclose(handle)
        return true
    }

    /// `folder` with its links followed, or `nil` when it does not exist; a folder others may write to is not
    /// trusted, so it gives `nil` too.
    static func canonical(_ folder: String) -> String? {
        guard let resolved = realpath(folder, nil) else { return nil }
        defer { free(resolved) }
        var status = stat()
        guard stat(resolved, &status) == 0, status.st_mode & 0o022 == 0 else { return nil }
        return String(cString: resolved)
    }

    /// The system's library folders and the folders of every library the process had loaded when a plugin was
    /// first inspected (read once, so before any plugin of a manifest is loaded).
    static let hostFolders: Set<String> = {
        var folders = ["/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib"]
        #if arch(x86_64)
        folders += ["/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu"]
        #elseif arch(arm64)
        folders += ["/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu"]
        #endif
        if let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) {
            for line in maps.split(separator: "\n") {
                guard let start = line.firstIndex(of: "/"), line.hasSuffix(".so") || line.contains(".so.") else { continue }
                let file = line[start...]
                folders.append(String(file[..<(file.lastIndex(of: "/") ?? file.startIndex)]))
            }
        }
        return Set(folders.compactMap(canonical))
    }()
}
