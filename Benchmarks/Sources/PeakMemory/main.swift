// `peak-memory <program> [arguments…]`: runs the program (output discarded) and prints its peak resident memory in
// KiB. A child's `ru_maxrss` includes the memory of the process that spawned it (the high-water mark carries over
// exec), so the benchmark, itself tens of MiB, cannot measure a small program directly; this launcher, which loads
// no Foundation, is smaller than every program it measures.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `text` to standard error.
func complain(_ text: String) {
    var bytes = Array(text.utf8)
    _ = write(2, &bytes, bytes.count)
}

let arguments = CommandLine.arguments.dropFirst()
guard let program = arguments.first else {
    complain("usage: peak-memory <program> [arguments…]\n")
    exit(64)
}
var actions = posix_spawn_file_actions_t()
posix_spawn_file_actions_init(&actions)
posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
var pid: pid_t = 0
let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
guard spawned == 0 else {
    complain("peak-memory: cannot run \(program): error \(spawned)\n")
    exit(69)
}
var status: Int32 = 0
var usage = rusage()
while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
print(usage.ru_maxrss)
exit(status == 0 ? 0 : 70)
