#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ModuleHost

/// A small file in a module's state directory, read with a size bound and replaced atomically.
///
/// Writes go to a new temporary file in the same directory (created with `O_CREAT | O_EXCL`, mode 0600),
/// are synced, then renamed over the target: an interruption at any point leaves the old file or the new
/// one, never a partial one. The directory is created with mode 0700. Symbolic links are not followed.
///
/// Nothing is trusted before it is checked: the state directory must be a real directory (not a symbolic link)
/// owned by the effective user and not shared (a sticky, set-group-ID, or group- or world-writable folder is
/// refused and left as it is; an existing one that is ours and only readable by others is used as it is, and that
/// is reported: only a folder the app creates is made 0700); a state file must be a regular file (a FIFO, device or socket is refused
/// without blocking) owned by the effective user and writable by nobody else; a secret file also readable by
/// nobody else.
///
/// A module's file (``HostEnvironment/stateFile(_:of:maximumSize:)``) lives in the module's own folder inside the
/// host's state folder, `<state>/<module identifier>/<name>`; both folders are checked, and created, by these
/// rules. Until the module has a file of that name, a file left at `<state>/<name>` by a version that kept every
/// module's files in the state folder itself is read instead, and moved into the module's folder: see ``read()``.
public struct StateFile: Sendable {
    /// The last step of a write: puts the finished temporary file at `targetPath`, returning `false` (with `errno`
    /// set) on failure. The default is rename(2); tests pass a failing step to check that the old file survives.
    package typealias Replace = @Sendable (_ temporaryPath: String, _ targetPath: String) -> Bool

    /// rename(2).
    package static let rename: Replace = { temporaryPath, targetPath in SystemCalls.rename(temporaryPath, targetPath) == 0 }

    /// link(2), which fails with `EEXIST` instead of replacing: for files created once (a key), never replaced.
    package static let linkOnce: Replace = { temporaryPath, targetPath in
        let linked = link(temporaryPath, targetPath) == 0
        let saved = errno
        unlink(temporaryPath)
        errno = saved
        return linked
    }

    /// Where the file lives.
    package let url: URL
    /// The largest file ``read()`` accepts.
    package let maximumSize: Int
    /// Whether the file holds a secret: then it must not be readable by group or others either.
    package let isSecret: Bool
    /// For a module's file: the host's state folder, which holds the module's folder (the file's directory) and
    /// possibly a file of the same name from before modules had folders (`legacyURL`). `nil` for a file whose
    /// directory is the state folder itself.
    package let hostDirectory: URL?
    /// The context of the module instance the file belongs to; once that instance is released, the file refuses.
    package let owner: (any ModuleContext)?
    let replace: Replace
    let notice: @Sendable (String) -> Void

    /// A state file at a path of the module's choosing, such as one its configuration names. A module's own
    /// folder in the host's state folder is ``HostEnvironment/stateFile(_:of:maximumSize:)``'s.
    ///
    /// - Parameters:
    ///   - url: Where the file lives.
    ///   - maximumSize: The largest file ``read()`` accepts, in bytes.
    ///   - owner: The context the module instance that uses the file was given. Once that instance is released,
    ///     ``read()``, ``write(_:)`` and ``remove()`` throw `StateFileError.Code.ownerReleased`, so an instance
    ///     that someone still holds cannot write over what the loaded instance writes. `nil` binds the file to
    ///     no instance.
    public init(url: URL, maximumSize: Int = 1 << 20, owner: (any ModuleContext)? = nil) {
        self.init(url: url, maximumSize: maximumSize, owner: owner, replace: Self.rename)
    }

    /// A state file whose writes end with `replace` instead of rename(2); `notice` hears what the user should know
    /// of its folders (an existing one readable by others, used as it is).
    /// `hostDirectory`: the host's state folder, when `url` is a module's file in its folder inside it.
    package init(url: URL, maximumSize: Int, isSecret: Bool = false, hostDirectory: URL? = nil,
                 owner: (any ModuleContext)? = nil, replace: @escaping Replace,
                 notice: @escaping @Sendable (String) -> Void = { _ in }) {
        self.owner = owner
        self.url = url
        self.maximumSize = maximumSize
        self.isSecret = isSecret
        self.hostDirectory = hostDirectory
        self.replace = replace
        self.notice = notice
    }

    var directory: URL { url.deletingLastPathComponent() }

    /// For a module's file, where a version that kept all modules' files in the host's state folder kept it:
    /// `<state>/<name>`. Never inside a module's folder, since a name holds no `/`.
    package var legacyURL: URL? {
        hostDirectory?.appendingPathComponent(url.lastPathComponent, isDirectory: false)
    }

    /// Throws `ownerReleased` once the module instance the file belongs to was released.
    func checkOwner() throws(StateFileError) {
        guard let owner, owner.isReleased else { return }
        let module = owner.owningModule.map { "\"\($0)\"" } ?? "the module"
        throw StateFileError(.ownerReleased, path: url.path,
                             message: "\(url.path) belongs to an instance of \(module) that was released; it can no longer "
                                + "read or write it, so that it cannot overwrite what the loaded instance writes")
    }

    static func reason() -> String {
        String(cString: strerror(errno))
    }
}
