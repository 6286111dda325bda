import Foundation
import TestSupport
import Testing

/// `uptime` is the app's uptime, not the ClockModule's: the module loads on first use, long after the app started.
@Suite("app-shell uptime")
struct UptimeTests {
    @Test func uptimeCountsFromTheAppsStartNotFromTheModulesLoad() async throws {
        // The ClockModule is not eager: it loads when `uptime` first runs.
        let workspace = try Workspace(manifest: #"{"modules": ["ClockModule.ClockModule"]}"#)
        let shell = try TerminalSession(in: workspace.url)
        // Taken once the process exists, so the app started no later than this (a stall before the spawn would
        // otherwise count against the second below).
        let launched = ContinuousClock.now
        try await shell.expect("app-shell> ")
        // The property is about time passing: let a second pass after the launch before the module loads.
        try await Task.sleep(until: launched + .seconds(1), clock: .continuous)
        shell.send("uptime\r")
        let line = try await shell.expect(" s, since ")
        shell.send("quit\r")
        #expect(try await shell.exitStatus() == 0)
        let text = try #require(line.split(separator: "up ").last?.split(separator: " ").first)
        let seconds = try #require(Double(text), "\(line.debugDescription)")
        #expect(seconds >= 0.9, "uptime \(seconds) s, a second after the app started")
        #expect(seconds < 600)
    }
}
