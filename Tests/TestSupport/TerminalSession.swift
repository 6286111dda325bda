import Foundation
import ModuleHost

#if canImport(Glibc)
import Glibc
#endif

/// The built `app-shell` running on a pseudo-terminal of its own, as a person at a terminal runs it: the
/// terminal is its controlling terminal (a new session), so Ctrl-C typed with the terminal's signal keys on would
/// send it SIGINT. A test writes keys and waits, with a deadline, for the output it expects.
package final class TerminalSession: Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package let process: pid_t
    private let master: Int32
    private let output = Locked<[UInt8]>([])
    /// Where the next ``expect(_:timeout:)`` starts looking.
    private let mark = Locked(0)
    private let exit = Locked<Int32?>(nil)
    private let updates: AsyncStream<Void>
    private let notify: AsyncStream<Void>.Continuation

    /// Starts `app-shell arguments` in `directory` on a new pseudo-terminal `columns` wide (`TERM=xterm`, no colour),
    /// with `environment` added to the test's.
    package init(_ arguments: [String] = ["-q"], in directory: URL, columns: UInt16 = 100, environment: [String: String] = [:]) throws {
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0, let terminalPath = Self.unlockTerminal(master) else {
            throw Failure(description: "no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        var size = winsize(ws_row: 24, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        (updates, notify) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        process = try Self.spawn(try ShellProcess.executable.path, arguments, terminal: terminalPath, directory: directory.path,
                                 environment: environment)
        let reader = Thread { [master, output, exit, notify, process] in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                output.withLock { $0.append(contentsOf: chunk[..<count]) }
                notify.yield()
            }
            var status: Int32 = 0
            while waitpid(process, &status, 0) < 0 && errno == EINTR {}
            exit.withLock { $0 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F) }
            notify.yield()
            notify.finish()
        }
        reader.start()
    }

    deinit {
        if exit.withLock({ $0 }) == nil { kill(process, SIGKILL) }
        close(master)
    }

    /// Types `keys`.
    package func send(_ keys: String) {
        var bytes = Array(keys.utf8)
        _ = bytes.withUnsafeMutableBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Types `first`, then `second` once `delay` has passed, waited on the calling thread (so the delay is what it
    /// says, not what a busy scheduler makes of it: it is the moment of the keystroke, not a wait for the shell).
    package func send(_ first: String, then second: String, after delay: Duration) {
        send(first)
        let (seconds, attoseconds) = delay.components
        var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&time, &remaining) != 0 && errno == EINTR { time = remaining }
        send(second)
    }

    /// Everything the shell wrote so far.
    package var transcript: String { output.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Waits until `text` appears after the previous match, and returns what came before it; the next call looks
    /// after it. Throws with the transcript when it does not come within `timeout`.
    @discardableResult
    package func expect(_ text: String, timeout: Duration = .seconds(30)) async throws -> String {
        let deadline = Task { [notify] in
            try await Task.sleep(for: timeout)
            notify.yield()
        }
        defer { deadline.cancel() }
        let start = ContinuousClock.now
        var iterator = updates.makeAsyncIterator()
        while true {
            if let found = find(text) { return found }
            if ContinuousClock.now - start >= timeout || exit.withLock({ $0 }) != nil && find(text) == nil {
                throw Failure(description: "\(text.debugDescription) did not appear within \(timeout); the terminal shows: \(transcript.debugDescription)")
            }
            guard await iterator.next() != nil else {
                if let found = find(text) { return found }
                throw Failure(description: "the shell ended before \(text.debugDescription); the terminal shows: \(transcript.debugDescription)")
            }
        }
    }

    /// The shell's exit status, once it has ended (within `timeout`).
    package func exitStatus(timeout: Duration = .seconds(30)) async throws -> Int32 {
        let deadline = Task { [notify] in
            try await Task.sleep(for: timeout)
            notify.yield()
        }
        defer { deadline.cancel() }
        let start = ContinuousClock.now
        var iterator = updates.makeAsyncIterator()
        while true {
            if let status = exit.withLock({ $0 }) { return status }
            if ContinuousClock.now - start >= timeout {
                throw Failure(description: "the shell did not end within \(timeout); the terminal shows: \(transcript.debugDescription)")
            }
            _ = await iterator.next()
        }
    }

    /// The terminal's local modes now (`ECHO`, `ISIG`…).
    package var localModes: tcflag_t {
        var modes = termios()
        _ = tcgetattr(master, &modes)
        return modes.c_lflag
    }

    private func find(_ text: String) -> String? {
        let needle = Array(text.utf8)
        return output.withLock { bytes in
            mark.withLock { mark in
                guard needle.count <= bytes.count - mark else { return nil }
                for start in mark...(bytes.count - needle.count) where bytes[start..<start + needle.count].elementsEqual(needle) {
                    let before = String(decoding: bytes[mark..<start], as: UTF8.self)
                    mark = start + needle.count
                    return before
                }
                return nil
            }
        }
    }

    /// Glibc's module does not export the pty calls (they need _XOPEN_SOURCE), so they are looked up in libc:
    /// grants and unlocks the terminal of `master`, and returns its path.
    private static func unlockTerminal(_ master: Int32) -> String? {
        typealias Call = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
        guard let libc = dlopen(nil, RTLD_NOW) else { return nil }
        defer { dlclose(libc) }
        guard let grant = dlsym(libc, "grantpt"), let unlock = dlsym(libc, "unlockpt"), let name = dlsym(libc, "ptsname_r"),
              unsafeBitCast(grant, to: Call.self)(master) == 0, unsafeBitCast(unlock, to: Call.self)(master) == 0 else { return nil }
        var path = [CChar](repeating: 0, count: 128)
        guard unsafeBitCast(name, to: Name.self)(master, &path, path.count) == 0 else { return nil }
        return String(decoding: path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// glibc's `POSIX_SPAWN_SETSID`, which its Swift module does not export.
    private static let spawnSetSID: Int16 = 0x80

    /// Spawns `executable` as the leader of a new session whose controlling terminal is `terminal`.
    private static func spawn(_ executable: String, _ arguments: [String], terminal: String, directory: String,
                              environment added: [String: String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, spawnSetSID)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Opened after setsid, without O_NOCTTY: it becomes the session's controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, terminal, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm"
        environment["NO_COLOR"] = "1"
        environment["COLUMNS"] = nil
        environment["EDITRC"] = "/dev/null"
        // A crash is reported at once: the Swift runtime's backtracer would otherwise wait for a key on the terminal.
        environment["SWIFT_BACKTRACE"] = "interactive=no"
        environment.merge(added) { $1 }
        // `sh` changes directory in the child (the parent's directory is shared by tests running in parallel),
        // then becomes app-shell: the same process, the session leader.
        let command = ["/bin/sh", "-c", #"cd "$1" && shift && exec "$@""#, "sh", directory, executable] + arguments
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
        guard result == 0 else { throw Failure(description: "cannot start \(executable): \(String(cString: strerror(result)))") }
        return pid
    }
}
