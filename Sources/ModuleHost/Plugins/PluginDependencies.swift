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
/// its types, its symbols), so every library it needs (`DT_NEEDED`) must be one the host trusts as it trusts its own:
/// one it has loaded already, or one the dynamic loader would take from a folder the host loads its own libraries
/// from (the Swift runtime's, the system's). A library it would take from anywhere else (the plugin's folder through
/// `$ORIGIN`, a folder of `LD_LIBRARY_PATH` or of the plugin's search paths, a path written in the plugin) is refused
/// before anything is loaded: it could have been compiled against another ModuleHost, and its code would run.
/// Read from the file on Linux; a Mach-O plugin's libraries are not read.
struct PluginDependencies {
    /// Whether a library of this name is in the process already, so loading the plugin loads nothing for it.
    var isLoaded: (String) -> Bool = Self.isLoadedInProcess
    /// The folders the host trusts to load from, each as `realpath` gives it.
    var trustedFolders: () -> Set<String> = { Self.hostFolders }
    /// `LD_LIBRARY_PATH`'s folders, which the loader searches before `DT_RUNPATH`'s.
    var libraryPath: () -> [String] = {
        (getenv("LD_LIBRARY_PATH").map { String(cString: $0) } ?? "").split(separator: ":").map(String.init)
    }
    var fileExists: (String) -> Bool = { access($0, F_OK) == 0 }
    /// A folder as the trusted ones are written: its links followed; `nil` for one that is missing or not trusted.
    var canonical: (String) -> String? = Self.canonical

    /// Refuses the first library in `dependencies` that the loader would bring in from outside the host's folders.
    ///
    /// - Parameters:
    ///   - dependencies: What the plugin's file says it needs and where to look.
    ///   - folder: The plugin's folder, what `$ORIGIN` stands for.
    ///   - path: The plugin's path, for the message.
    ///   - library: The library as the manifest names it.
    /// - Throws: `PluginError` with code `unsafeDependency`.
    func check(_ dependencies: ELFImage.Dependencies, folder: String, path: String, library: String) throws(PluginError) {
        func refuse(_ name: String, _ why: String) -> PluginError {
            PluginError(.unsafeDependency, library: library, message:
                "\(path) needs the library \(name), \(why); only the plugin itself is checked before it loads, so it was not loaded: "
                + "link \(name) into the plugin, or install it where the host's own libraries are")
        }
        let trusted = trustedFolders()
        func isTrusted(_ folder: String) -> Bool { canonical(folder).map(trusted.contains) ?? false }
        let searched = (dependencies.runpath.isEmpty ? dependencies.rpath : []) + libraryPath() + dependencies.runpath
        for name in dependencies.needed {
            if name.contains("/") {
                let file = name.hasPrefix("/") ? name : folder + "/" + name
                let parent = String(file[..<(file.lastIndex(of: "/") ?? file.startIndex)])
                guard isTrusted(parent.isEmpty ? "/" : parent) else { throw refuse(name, "named by its path, outside the host's library folders") }
                continue
            }
            if isLoaded(name) { continue }
            for entry in searched {
                let expanded = entry.replacing("${ORIGIN}", with: folder).replacing("$ORIGIN", with: folder)
                guard !expanded.contains("$") else { throw refuse(name, "searched for in \(entry), whose token the host does not expand") }
                let directory = expanded.isEmpty ? "." : expanded
                guard fileExists(directory + "/" + name) else { continue }
                guard isTrusted(directory) else { throw refuse(name, "which the loader would take from \(directory), not a folder of the host's libraries") }
                break
            }
            // Otherwise the loader takes it from the system's own folders, or fails without running any code.
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
