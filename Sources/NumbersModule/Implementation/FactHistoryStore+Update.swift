import NumbersInterface
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost
import ModuleHostState
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Several processes may share one state folder (scripts running `app-shell fact N` side by side). Each update locks
/// the history against the others, reads it afresh and applies its change to what it read, so no entry another
/// process wrote is lost to a write from an older copy.
extension FactHistoryStore {
    /// What an update wrote: the histories now in the file, and how many entries its size limit dropped.
    struct Update {
        let contents: Contents
        let dropped: Int
        /// What reading it afresh found to tell the user (a file that became unusable, and where it went).
        let warning: String?
    }

    /// How long an update waits for another process's lock before it gives up, saving nothing.
    static let lockWait: Duration = .seconds(5)

    /// Locks the history file (an advisory lock on `<name>.lock` beside it, which waits for another process's
    /// update to end, at most ``lockWait``), reads it afresh, applies `change` and writes the result, keeping
    /// `user`'s entries first when the size limit drops some. Returns `nil`, writing nothing, when the file cannot be
    /// used (see ``load()``).
    ///
    /// - Parameters:
    ///   - user: Whose entries are kept first.
    ///   - waiting: Called once, with the lock file's path, when another process holds the lock.
    ///   - change: What the update does to the histories read afresh.
    /// - Returns: What was written, or `nil`.
    /// - Throws: `StateFileError` when the lock cannot be taken in time or the file cannot be written.
    func update(keeping user: String, waiting: (String) -> Void = { _ in },
                _ change: (inout Contents) -> Void) throws(StateFileError) -> Update? {
        // One update at a time in this process: `flock` sets two descriptors of one process against each other
        // too, and the wait would then be said to be for another process.
        try Self.inProcess.withLock { _ throws(StateFileError) in try updateLocked(keeping: user, waiting: waiting, change) }
    }

    /// Serializes this process's updates.
    private static let inProcess = Locked(())

    private func updateLocked(keeping user: String, waiting: (String) -> Void,
                              _ change: (inout Contents) -> Void) throws(StateFileError) -> Update? {
        try file.createDirectory()   // checked (and made, 0700, if missing) before anything is created in it
        let lock = try Self.lock(file.url.path + ".lock", waiting: waiting)
        defer { close(lock) }   // closing the descriptor releases the lock
        var loaded = load()
        guard loaded.writable else { return nil }
        change(&loaded.contents)
        let fitted = try encodeFitting(loaded.contents, keeping: user)
        try write(fitted.data)
        return Update(contents: fitted.contents, dropped: fitted.dropped, warning: loaded.warning)
    }

    /// Opens (creating, 0600, without following a symbolic link) and exclusively locks the file at `path`, waiting
    /// at most ``lockWait`` for another process that holds it (and saying so, through `waiting`); returns its
    /// descriptor.
    private static func lock(_ path: String, waiting: (String) -> Void) throws(StateFileError) -> Int32 {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else {
            throw StateFileError(.writeFailed, path: path, message: "cannot open the history's lock file \(path): "
                                 + String(cString: strerror(errno)))
        }
        let deadline = ContinuousClock.now + lockWait
        var told = false
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            switch errno {
            case EINTR:
                continue
            case EWOULDBLOCK:
                if !told { waiting(path) }
                told = true
                guard ContinuousClock.now < deadline else {
                    close(descriptor)
                    throw StateFileError(.writeFailed, path: path, message: "another process has held the history's lock file \(path) "
                                         + "for more than \(lockWait.components.seconds) s; the lookup was not saved")
                }
                usleep(20_000)
            default:
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw StateFileError(.writeFailed, path: path, message: "cannot lock the history's lock file \(path): \(reason)")
            }
        }
        return descriptor
    }
}
