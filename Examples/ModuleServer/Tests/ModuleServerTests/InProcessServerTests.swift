import Foundation
import Logging
import ModuleHost
@testable import ModuleServer
import ServiceLifecycle
import Synchronization
import Testing

@Suite("The server, in process", .timeLimit(.minutes(1)))
struct InProcessServerTests {
    /// The example's own manifest.
    static let manifest = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("modules.json").path

    @Test func servesTheModulesRoutesOverRealHTTP() async throws {
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let server = try ModuleServer(options: try ServerOptions(arguments: ["--manifest", Self.manifest, "--port", "0"]),
                                      logger: Logger(label: "test"), signals: [],
                                      onListening: { portContinuation.yield($0) })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())

            let hello = try HTTPGet.get("/hello/Ada", port: port)
            #expect(hello.status == 200)
            #expect(hello.body == "Hello, Ada!\n")
            #expect(try HTTPGet.get("/status", port: port).body == "ok\n")
            #expect(try HTTPGet.get("/modules", port: port).body == "example.greeting\nexample.status\n")
            #expect(try HTTPGet.get("/nowhere", port: port).status == 404)

            await server.group.triggerGracefulShutdown()
            try await group.waitForAll()
        }
        #expect(server.modules.teardownRecords.map(\.module) == [.status, .greeting])
        #expect(server.modules.teardownRecords.allSatisfy { $0.outcome == .finished })
    }

    @Test func parsesItsCommandLine() throws {
        let options = try ServerOptions(arguments: ["--port", "0", "--host", "::1", "--manifest", "m.json"])
        #expect(options.port == 0 && options.host == "::1" && options.manifest == "m.json")
        #expect(throws: ServerOptions.UsageError.self) { try ServerOptions(arguments: ["--port", "70000"]) }
        #expect(throws: ServerOptions.UsageError.self) { try ServerOptions(arguments: ["--verbose"]) }
        #expect(try ServerOptions(arguments: []).logLevel == .info)
        #expect(try ServerOptions(arguments: ["--log-level", "debug"]).logLevel == .debug)
        #expect(throws: ServerOptions.UsageError.self) { try ServerOptions(arguments: ["--log-level", "loud"]) }
    }

    /// A host outside the ModuleHost repository (this package) prints the startup report as
    /// app-shell does and writes its Chrome trace, in a host run with one call.
    @Test func anExternalHostPrintsTheReportAndWritesAChromeTrace() async throws {
        let manager = ModuleManager(typeResolver: .types(ModuleServer.moduleTypes))
        manager.declare(.httpRoutes)
        try manager.registerModules(withConfigFilePath: URL(fileURLWithPath: Self.manifest))
        let teardown = Mutex<[ModuleIdentifier]>([])
        let (table, trace, loaded) = try await manager.run(onTeardown: { records in teardown.withLock { $0 = records.map(\.module) } }) { report in
            _ = try manager.bridge.resolve(.status)
            _ = try manager.bridge.resolve(.greeting)
            let loaded = manager.modules.filter { $0.state == .loaded }.map(\.identifier)
            return (report.renderTable(width: 40), try report.chromeTrace(), loaded)
        }
        #expect(table.split(separator: "\n").allSatisfy { $0.count <= 40 }, "\(table)")
        #expect(table.contains("total: blocking"))
        let document = try #require(try JSONSerialization.jsonObject(with: trace) as? [String: Any])
        #expect(document["traceEvents"] is [Any])
        #expect(document["displayTimeUnit"] as? String == "ms")
        #expect(loaded.count == 2)
        #expect(teardown.withLock { $0 } == loaded.reversed(), "torn down in reverse load order")
        #expect(!(try manager.startupGraph(as: .mermaid)).isEmpty)
    }
}
