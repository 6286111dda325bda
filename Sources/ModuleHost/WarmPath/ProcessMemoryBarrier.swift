#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Linux's `membarrier(2)`, private expedited: one call makes every running thread of this process execute a full
/// memory barrier before it returns.
///
/// It moves the cost of ordering from many readers to the rare writer: a reader announcing a read section may use
/// a plain store (no fence) when the writer, before checking the announcements, calls ``fence()``
/// (see ``SnapshotReaders``). Where the system call is missing (other systems, old kernels, sandboxes that refuse
/// it), ``isAvailable`` is `false` and readers fence themselves.
enum ProcessMemoryBarrier {
    /// Whether ``fence()`` works in this process: the kernel offers the command and this process registered for it.
    static let isAvailable: Bool = register()

    /// Makes every thread of this process execute a full memory barrier; `false` if the kernel refused.
    static func fence() -> Bool {
        guard isAvailable, let call = systemCall else { return false }
        return call(membarrierNumber, privateExpedited, 0, 0) == 0
    }

    // MEMBARRIER_CMD_QUERY, _PRIVATE_EXPEDITED and _REGISTER_PRIVATE_EXPEDITED from <linux/membarrier.h>.
    private static let query: Int32 = 0
    private static let privateExpedited: Int32 = 1 << 3
    private static let registerPrivateExpedited: Int32 = 1 << 4

    /// `__NR_membarrier` of this architecture, or -1 where it is not known here.
    private static let membarrierNumber: Int = {
        #if os(Linux) && arch(x86_64)
        324
        #elseif os(Linux) && arch(arm64)
        283
        #else
        -1
        #endif
    }()

    private typealias SystemCall = @convention(c) (Int, Int32, UInt32, Int32) -> Int

    /// The C library's `syscall`, found at run time: Swift cannot call a variadic C function directly, and on the
    /// Linux calling conventions used here a variadic call passes these integer arguments as a plain call does.
    private static let systemCall: SystemCall? = {
        #if os(Linux)
        guard let symbol = dlsym(nil, "syscall") else { return nil }
        return unsafeBitCast(symbol, to: SystemCall.self)
        #else
        return nil
        #endif
    }()

    /// Asks the kernel whether private expedited barriers exist, then registers this process for them.
    private static func register() -> Bool {
        guard membarrierNumber >= 0, let call = systemCall else { return false }
        let supported = call(membarrierNumber, query, 0, 0)
        let needed = Int(privateExpedited | registerPrivateExpedited)
        guard supported >= 0, supported & needed == needed else { return false }
        return call(membarrierNumber, registerPrivateExpedited, 0, 0) == 0
    }
}
