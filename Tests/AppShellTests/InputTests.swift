import Foundation
import TestSupport
import ModuleHost
import Testing

@testable import AppShell

#if canImport(Glibc)
import Glibc
#endif

/// Input the shell must not trust: password lines where a command is expected, lines of any length, and a
/// terminal whose echo a password read turned off.
@Suite("app-shell input")
struct InputTests {
    private static let numbersOnly = #"{"modules": ["NumbersModule.NumbersModule"]}"#

    // MARK: A password line is never a command

    @Test func aScriptedPasswordAfterAWrongLoginIsNeverRun() async throws {
        // With AuthModule: whatever the login line's mistake, the next line is its password.
        let workspace = try Workspace()
        let result = try await workspace.run(["-q"], input: "login alice smith\nquit\nlogin\nfact 28\nfact 6\n")
        #expect(result.status == 64)
        #expect(!result.stdout.contains("28 is a perfect number"))
        #expect(result.stdout.contains("6 is a perfect number"))
    }

    // MARK: Lines are bounded

    @Test func aLineLongerThan64KiBIsSkippedWithoutBeingEchoed() async throws {
        let workspace = try Workspace(manifest: Self.numbersOnly)
        let long = "fact " + String(repeating: "7", count: 1 << 20)
        let result = try await workspace.run(["-q"], input: "\(long)\nfact 6\n")
        #expect(result.status == 64)
        #expect(result.stderr.contains("line 1: longer than 65536 bytes; skipped"))
        #expect(!result.all.contains("7777777777"), "the line is never echoed")
        #expect(result.stdout.contains("6 is a perfect number"), "the script goes on with the next line")
    }

    @Test func aPasswordLineLongerThan64KiBIsNotRead() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["-q"], input: "login alice\n\(String(repeating: "s", count: 200_000))\nwhoami\n")
        #expect(result.stderr.contains("longer than 65536 bytes"))
        #expect(!result.all.contains("ssssssssss"))
        #expect(result.stdout.contains("Not logged in."))
    }

    @Test func theLineReaderKeepsItsLimitAndFindsTheNextLine() throws {
        let pipe = Pipe()
        let writer = Thread {
            let handle = pipe.fileHandleForWriting
            handle.write(Data("short\r\n".utf8))
            let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
            for _ in 0..<4 { handle.write(chunk) }  // one 4 MiB line
            handle.write(Data("\n\(String(repeating: "y", count: 100))\nlast".utf8))
            try? handle.close()
        }
        writer.start()
        let reader = LineReader(descriptor: pipe.fileHandleForReading.fileDescriptor, limit: 100)
        #expect(reader.next() == .text("short"))
        #expect(reader.next() == .tooLong)
        #expect(reader.next() == .text(String(repeating: "y", count: 100)), "exactly the limit is allowed")
        #expect(reader.next() == .text("last"))
        #expect(reader.next() == .end)
    }

    // MARK: Echo is restored on every path

    /// A pseudo-terminal: the master end and the terminal (slave) end, both closed at the end of `body`.
    /// Glibc's module does not export the pty calls (they need _XOPEN_SOURCE), so they are looked up in libc.
    private static func withTerminal<T>(_ body: (_ master: Int32, _ terminal: Int32) throws -> T) throws -> T {
        typealias Call = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
        let libc = dlopen(nil, RTLD_NOW)
        defer { if let libc { dlclose(libc) } }
        let grant = try #require(dlsym(libc, "grantpt")), unlock = try #require(dlsym(libc, "unlockpt"))
        let name = try #require(dlsym(libc, "ptsname_r"))
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        defer { close(master) }
        try #require(unsafeBitCast(grant, to: Call.self)(master) == 0 && unsafeBitCast(unlock, to: Call.self)(master) == 0)
        var path = [CChar](repeating: 0, count: 128)
        try #require(unsafeBitCast(name, to: Name.self)(master, &path, path.count) == 0)
        let terminal = open(String(decoding: path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), O_RDWR | O_NOCTTY)
        try #require(terminal >= 0)
        defer { close(terminal) }
        return try body(master, terminal)
    }

    private static func echoes(_ terminal: Int32) -> Bool {
        var settings = termios()
        return tcgetattr(terminal, &settings) == 0 && settings.c_lflag & tcflag_t(ECHO) != 0
    }

    @Test func echoStaysOnWhenShutdownRestoresTheTerminalBeforeAPasswordRead() throws {
        // The race: Ctrl-C right after `login <user>`; shutdown restores the terminal before the input thread
        // turns echo off. The restore must win for good.
        try Self.withTerminal { _, terminal in
            let echo = TerminalEcho(descriptor: terminal)
            echo.restore()
            #expect(echo.silence() == .closed)
            #expect(Self.echoes(terminal))
        }
    }

    @Test func aPasswordReadTurnsEchoOffUntilItEndsOrTheShellEnds() throws {
        try Self.withTerminal { _, terminal in
            let echo = TerminalEcho(descriptor: terminal)
            #expect(echo.silence() == .silenced)
            #expect(!Self.echoes(terminal))
            echo.unsilence()
            #expect(Self.echoes(terminal))
            #expect(echo.silence() == .silenced)
            echo.restore()
            #expect(Self.echoes(terminal))
            #expect(echo.silence() == .closed)
            #expect(Self.echoes(terminal))
        }
    }
}
