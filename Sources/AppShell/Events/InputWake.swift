import ModuleHost
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Ends a read of standard input early when the command that asked for the line is cancelled (Ctrl-C came just
/// before its password prompt took the terminal, say): the input thread waits on standard input and on a pipe of
/// its own, and ``cancel()`` writes to the pipe.
///
/// One read at a time: ``arm()`` when a line is asked for, ``beginReading()`` and ``endReading()`` around the read,
/// on the input thread. A cancellation never outlives the read it was for: the pipe is written only while a read
/// is under way, and emptied when it ends.
final class InputWake: Sendable {
    private struct State {
        var reading = false
        var cancelled = false
    }

    /// The pipe's ends (read, write), or `nil` if none could be made (reads are then not cancelled).
    private let ends: (read: Int32, write: Int32)?
    private let state = Locked(State())

    init() {
        var descriptors: [Int32] = [-1, -1]
        if pipe(&descriptors) == 0 {
            for descriptor in descriptors {
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            }
            ends = (descriptors[0], descriptors[1])
        } else {
            ends = nil
        }
    }

    deinit {
        if let ends {
            close(ends.read)
            close(ends.write)
        }
    }

    /// The descriptor that becomes readable when the read is cancelled.
    var descriptor: Int32? { ends?.read }

    /// A line is asked for: an earlier cancellation no longer counts.
    func arm() {
        state.withLock { $0.cancelled = false }
    }

    /// Cancels the read under way, or the next one to begin.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            var byte: UInt8 = 1
            if state.reading, let ends { _ = write(ends.write, &byte, 1) }
        }
    }

    /// The input thread is about to read; `false` if the read was already cancelled (then nothing is read).
    func beginReading() -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.reading = true
            return true
        }
    }

    /// Whether ``cancel()`` came since the line was asked for (during the read under way, once it began).
    var isCancelled: Bool {
        state.withLock { $0.cancelled }
    }

    /// The read is over; the pipe is emptied.
    func endReading() {
        state.withLock { state in
            state.reading = false
            guard let ends else { return }
            var byte: UInt8 = 0
            while read(ends.read, &byte, 1) == 1 {}
        }
    }
}
