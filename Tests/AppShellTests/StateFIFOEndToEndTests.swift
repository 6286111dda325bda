import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// State files: a FIFO as `session.json` or `numbers-history.json` is refused at once, with
/// a message, instead of hanging startup. The FIFO has a writer that never writes, so a blocking read would wait for
/// ever (the old code did; the run's time limit turns that into a failure rather than a hang). Both where the files
/// live (each module's folder) and where earlier versions kept them (the state folder itself, still read).
@Suite("State files that are FIFOs")
struct StateFIFOEndToEndTests {
    @Test(arguments: ["com.modulehost.auth/session.json", "com.modulehost.numbers/numbers-history.json",
                      "session.json", "numbers-history.json"])
    func aFIFOStateFileIsRefusedWithoutBlocking(_ name: String) async throws {
        let workspace = try Workspace()
        let state = workspace.url.appendingPathComponent(".app-shell")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let fifoURL = state.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: fifoURL.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let fifo = fifoURL.path
        try #require(mkfifo(fifo, 0o600) == 0)
        let writer = open(fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        defer { close(writer) }
        try #require(writer >= 0)

        let result = try await ShellProcess.run(["whoami"], in: workspace.url, timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Not logged in"))
        #expect(result.stderr.contains("\(name) is a FIFO, not a regular file; refusing to read it"), "\(result.stderr)")
    }
}
