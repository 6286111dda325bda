import Foundation
import Testing
@testable import ModuleHost
@testable import ModuleHostJSON

/// A module whose configuration is a chain of nested objects, decoded recursively by its synthesized `init(from:)`.
final class ChainConfiguredModule: ConfigurableModule {
    final class Link: Decodable, Sendable {
        let next: Link?
    }
    typealias Configuration = Link
    static let moduleIdentifier: ModuleIdentifier = "test.chain-configured"
    init(context: any ModuleContext) {}
}

/// The deepest manifest the reader accepts is read on a thread with a small stack, in a debug build too: the parser
/// and the repeated-key walk keep their open containers in lists, not on the stack, and decoding nests at most
/// ``JSONValueDecoder/maximumDepth`` levels. (Parsing 512 levels recursively needed more than 2 MiB of stack in a
/// debug build: a crash on a secondary thread, 512 KiB on Apple platforms, for input a manifest can hold.)
///
/// Came from Regression/ (added in fc7be17, a deep manifest on a small stack);
/// now filed under the feature it protects.
@Suite("Manifest stack use")
struct ManifestStackTests {
    /// A manifest whose one config is a chain of objects down to the parser's nesting limit.
    private static let deepestManifest: Data = {
        let levels = JSONParser.maximumDepth - 3  // the root object, `modules` and the entry hold the config
        let chain = String(repeating: #"{"next": "#, count: levels - 1) + "{}" + String(repeating: "}", count: levels - 1)
        return Data((#"{"modules": [{"type": "ModuleHostTests.ChainConfiguredModule", "config": "# + chain + "}]}").utf8)
    }()

    @Test func theDeepestManifestIsRegisteredOnAThreadWithA512KiBStack() throws {
        let manifest = Self.deepestManifest
        let diagnostics = Locked<[ManifestDiagnostic]?>(nil)
        try #require(runsOnThread(stackSize: 512 << 10) {
            do {
                try ModuleManager().registerModules(from: manifest, file: "modules.json")
            } catch let error as ManifestError {
                diagnostics.withLock { $0 = error.diagnostics }
            } catch {
                Issue.record("not a manifest error: \(error)")
            }
        })
        let found = try #require(diagnostics.withLock { $0 }, "a config nested past the decoding limit was accepted")
        #expect(found.map(\.code) == [.invalidConfig])
        #expect(found.first?.message.contains("nests more than \(JSONValueDecoder.maximumDepth) levels") == true,
                "\(found.map(\.message))")
    }

    @Test func theDeepestManifestIsValidatedOnAThreadWithA512KiBStack() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stack-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("modules.json")
        try Self.deepestManifest.write(to: file)
        let codes = Locked<[ManifestDiagnostic.Code]>([])
        try #require(runsOnThread(stackSize: 512 << 10) {
            let found = ModuleManager().validateManifest(at: file).map(\.code)
            codes.withLock { $0 = found }
        })
        #expect(codes.withLock { $0 } == [.invalidConfig])
    }

    @Test func parsingToTheNestingLimitNeedsLittleStack() throws {
        let depth = JSONParser.maximumDepth
        let document = Array((String(repeating: #"{"a": ["#, count: depth / 2) + String(repeating: "]}", count: depth / 2)).utf8)
        let parsed = Locked(false)
        try #require(runsOnThread(stackSize: 128 << 10) {
            let value = try? JSONParser.parse(document)
            parsed.withLock { $0 = value != nil }
        })
        #expect(parsed.withLock { $0 })
    }

    /// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for it to end; false if no such
    /// thread could be made.
    private func runsOnThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) -> Bool {
        final class Work: Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        guard pthread_attr_setstacksize(&attributes, stackSize) == 0 else { return false }
        var thread = pthread_t()
        let raw = Unmanaged.passRetained(Work(body)).toOpaque()
        let created = pthread_create(&thread, &attributes, { argument in
            guard let argument else { return nil }
            Unmanaged<Work>.fromOpaque(argument).takeRetainedValue().body()
            return nil
        }, raw)
        guard created == 0 else {
            Unmanaged<Work>.fromOpaque(raw).release()
            return false
        }
        return pthread_join(thread, nil) == 0
    }
}
