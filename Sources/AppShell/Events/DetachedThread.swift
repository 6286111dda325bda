import ModuleHost
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of its own for blocking work (reading standard input, reading a manifest), so it never holds a
/// thread of Swift's cooperative pool; FoundationEssentials has no `Thread`.
enum DetachedThread {
    /// Runs `body` on a new detached thread; `name` says what it is for (in a debugger, the thread's closure
    /// names it). Runs it on the caller's thread if no thread can be made.
    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        if !spawn(name: name, body) { body() }
    }

    /// Runs `body` on a new detached thread; whether one could be made (if not, `body` is not run).
    static func spawn(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        final class Box: @unchecked Sendable {
            let name: String
            let body: @Sendable () -> Void
            init(name: String, body: @escaping @Sendable () -> Void) { self.name = name; self.body = body }
        }
        let box = Unmanaged.passRetained(Box(name: name, body: body))
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let created = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            let box = Unmanaged<Box>.fromOpaque(argument).takeRetainedValue()
            box.body()
            return nil
        }, box.toOpaque())
        guard created == 0 else {
            box.release()
            return false
        }
        #if canImport(Darwin)
        if let thread { pthread_detach(thread) }
        #else
        pthread_detach(thread)
        #endif
        return true
    }
}

/// Writing all of a text to a file descriptor, retrying after signals; a closed pipe ends it quietly.
enum DescriptorOutput {
    /// Writes `text`; a closed pipe or a full disk ends it quietly.
    static func write(_ text: String, to descriptor: Int32) {
        write(Array(text.utf8), to: descriptor)
    }

    /// Writes all of `bytes`, retrying after signals; whether every byte was written.
    @discardableResult
    static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var rest = bytes[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { buffer in
                buffer.baseAddress.map { SystemCalls.write(descriptor, $0, buffer.count) } ?? 0
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            rest = rest.dropFirst(written)
        }
        return true
    }
}

extension String {
    /// The text followed by spaces up to `width` characters (as it is when already that long).
    func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
