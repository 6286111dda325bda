import Foundation
import Testing
import TestSupport
import ModuleHostTesting

/// The README promises that adding a module breaks no test. This adds two to a scratch copy of the repository, both
/// ways *Adding a module* gives: NotesModule with `swift package add-module Notes` (its files then replaced by a
/// module with a command, a startup operation and a long identifier), and TasksModule by hand (its two targets, the
/// host's dependency, a line in `modules.json`). It then builds the copy and runs its tests of the demo: the shell's,
/// the package's shape, the documentation's and the new module's own.
///
/// What cannot see the new modules is left out of the copy, to keep the run short: the test targets of ModuleHost
/// and of the other modules (they read their own fixtures and sources, which adding a module does not change), and
/// the suites that build hosts or plugins or run hundreds of terminal trials (and this one).
@Suite("Adding a module", .enabled(if: SlowLane.isRequested, SlowLane.reason), .disabled(if: ScratchCopy.isInside, "running inside the scratch copy"),
       .disabled(if: Sanitizers.threadSanitizerIsActive, "CPU-bound, proves no concurrency property; runs in the plain suite"),
       .timeLimit(.minutes(30)))
struct AddingAModuleTests {
    /// Test targets that cannot see a new module: left out of the copy's build.
    static let otherTestTargets = ["ModuleHostTests", "ModuleHostStateTests", "ModuleHostRoutingTests", "AuthModuleTests", "NumbersModuleTests",
                                   "AppShellSlowTests"]
    /// The slow lane (suites that build hosts or plugins, or run hundreds of terminal trials): none reads the demo's
    /// modules, and this suite is among them.
    static let skipped = "AppShellSlowTests"

    static let interface = """
        import ModuleHost

        /// What other modules may use of the notes module.
        public protocol NotesService: Sendable {
            /// The notes taken so far.
            func count() -> Int
            /// The module's name (what the test add-module wrote asks).
            func name() -> String
        }

        extension ModuleIdentifier {
            /// The notes module, with an identifier longer than the help's 40 columns can hold on one line.
            public static let notes: ModuleIdentifier = "com.example.notes-kept-by-a-module-added-in-a-scratch-copy"
        }
        """

    static let module = """
        #if canImport(FoundationEssentials)
        import FoundationEssentials
        #else
        import Foundation
        #endif
        import ModuleHost
        import NotesInterface
        import Synchronization

        /// A module added as the guide says.
        public final class NotesModule: ModuleProtocol, NotesService {
            public static let moduleIdentifier: ModuleIdentifier = .notes
            public static let providedServices: [ProvidedService] = [.service(NotesService.self, from: NotesModule.self) { $0 }]
            private let notes = Mutex<[String]>([])

            public init(context: any ModuleContext) {}

            public func count() -> Int { notes.withLock { $0.count } }

            public func name() -> String { "Notes" }

            public static let contributions: [Contribution] = [
                .startupOperation(ModuleStartupOperation("notes.open", priority: .low) { context in
                    _ = try context.bridge.resolve(NotesService.self).count()
                }),
                .command(ModuleCommand("note-count", summary: "how many notes were taken since the module loaded") { context in
                    .text("\\(try context.manager.bridge.resolve(NotesService.self).count()) notes")
                }),
            ]
        }
        """

    /// Names for the two modules that no target of the repository has yet: a user who has added a `Notes` module
    /// (as the guide's example does) still gets a green suite.
    struct Names {
        let notes: String
        let tasks: String

        init(unusedIn root: URL) throws {
            func unused(_ candidates: [String]) throws -> String {
                try #require(candidates.first { name in
                    ["Module", "Interface"].allSatisfy {
                        !FileManager.default.fileExists(atPath: root.appendingPathComponent("Sources/\(name)\($0)").path)
                    }
                }, "every candidate name is taken: \(candidates)")
            }
            notes = try unused(["Notes", "Jottings", "Memos", "Scribbles"])
            tasks = try unused(["Tasks", "Chores", "Errands", "Duties"])
        }

        /// `text`, written for `Notes` and `Tasks`, for these names.
        func apply(_ text: String) -> String {
            text.replacingOccurrences(of: "Notes", with: notes).replacingOccurrences(of: "notes", with: notes.lowercased())
                .replacingOccurrences(of: "Tasks", with: tasks).replacingOccurrences(of: "tasks", with: tasks.lowercased())
        }
    }

    /// A repository that already has a `Notes` module (the guide's example) gets other names, used everywhere.
    @Test func aNameTheRepositoryHasIsNotReused() throws {
        let root = try ProcessScratch.folder("adding-a-module-names")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Sources/NotesInterface"), withIntermediateDirectories: true)
        let names = try Names(unusedIn: root)
        #expect(names.notes == "Jottings" && names.tasks == "Tasks")
        #expect(names.apply("NotesInterface .notes TasksModule") == "JottingsInterface .jottings TasksModule")
    }

    @Test func aModuleAddedAsTheGuideSaysBreaksNoTest() async throws {
        let names = try Names(unusedIn: PluginToolchain.root)
        let copy = try ProcessScratch.folder("adding-a-module")
        try Self.copySources(of: PluginToolchain.root, to: copy)
        let modulesBefore = try Self.moduleCount(in: copy)
        let added = try await PluginToolchain.run(["swift", "package", "--package-path", copy.path, "--allow-writing-to-package-directory",
                                                   "add-module", names.notes], timeout: .seconds(1_800))
        try #require(added.status == 0, "add-module failed:\n\(added.all.suffix(4_000))")
        let again = try await PluginToolchain.run(["swift", "package", "--package-path", copy.path, "--allow-writing-to-package-directory",
                                                   "add-module", names.notes], timeout: .seconds(1_800))
        #expect(again.status != 0 && again.all.contains("already has a target named \(names.notes)Interface"), "\(again.all.suffix(2_000))")
        try add(to: copy, names)

        let started = ContinuousClock.now
        let build = try await PluginToolchain.run(["swift", "build", "--build-tests", "--package-path", copy.path], timeout: .seconds(1_800))
        try #require(build.status == 0, "the copy with a module added does not build:\n\(build.all.suffix(4_000))")
        let check = try await PluginToolchain.run(["swift", "run", "--skip-build", "--package-path", copy.path, "app-shell",
                                                   "--manifest", copy.appendingPathComponent("modules.json").path, "validate"])
        #expect(check.status == 0 && check.all.contains("(\(modulesBefore + 2) modules"), "\(check.all)")
        let listed = try await PluginToolchain.run(["swift", "run", "--skip-build", "--package-path", copy.path, "app-shell",
                                                    "--manifest", copy.appendingPathComponent("modules.json").path, "modules"])
        #expect(listed.stdout.contains(names.apply("NotesModule.NotesModule")) && listed.stdout.contains(names.apply("TasksModule.TasksModule")),
                "\(listed.all)")
        let tests = try await PluginToolchain.run(
            ["swift", "test", "--skip-build", "--package-path", copy.path, "--skip", Self.skipped],
            environment: [ScratchCopy.marker: "1"], timeout: .seconds(1_800))
        print("adding a module: the copy built and tested in \(ContinuousClock.now - started)")
        #expect(tests.status == 0, "a test of the demo broke when a module was added:\n\(Self.failures(in: tests.all))")
        #expect(tests.all.contains("Test run with"), "the copy's tests did not run:\n\(tests.all.suffix(2_000))")
    }

    /// Copies the repository's files, leaving out build folders (`.build`, `.build-*`, at any depth), `.git`,
    /// `.swiftpm`, and the packages no test of the demo reads.
    private static func copySources(of root: URL, to copy: URL) throws {
        let manager = FileManager.default
        guard let walk = manager.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey]) else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: root.path])
        }
        let prefix = root.standardizedFileURL.path + "/"
        while let url = walk.nextObject() as? URL {
            let name = url.lastPathComponent
            let relative = String(url.standardizedFileURL.path.dropFirst(prefix.count))
            let isDirectory = (try url.resourceValues(forKeys: [.isDirectoryKey])).isDirectory == true
            if name.hasPrefix(".build") || [".git", ".swiftpm", "Benchmarks", "Fuzz"].contains(relative) || name == ".git" {
                if isDirectory { walk.skipDescendants() }
                continue
            }
            let target = copy.appendingPathComponent(relative)
            if isDirectory {
                try manager.createDirectory(at: target, withIntermediateDirectories: true)
            } else {
                try manager.copyItem(at: url, to: target)
            }
        }
    }

    /// NotesModule's files replaced by the richer module above, and TasksModule added by hand as the guide says: its
    /// two targets (after the package's `targets: [`), the host's dependency (at the end of AppShell's), its entry.
    private func add(to copy: URL, _ names: Names) throws {
        let tasksInterface = "import ModuleHost\n\n/// What others may use of the tasks module.\npublic protocol TasksService: Sendable {}\n"
        let tasksModule = """
            import ModuleHost
            import TasksInterface

            /// A module added by hand.
            public final class TasksModule: ModuleProtocol, TasksService {
                public static let moduleIdentifier: ModuleIdentifier = "com.example.tasks"
                public static let providedServices: [ProvidedService] = [.service(TasksService.self, from: TasksModule.self) { $0 }]
                public init(context: any ModuleContext) {}
            }
            """
        for (folder, file, text) in [("NotesInterface", "NotesService.swift", Self.interface), ("NotesModule", "NotesModule.swift", Self.module),
                                     ("TasksInterface", "TasksService.swift", tasksInterface), ("TasksModule", "TasksModule.swift", tasksModule)] {
            let directory = copy.appendingPathComponent("Sources/\(names.apply(folder))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(names.apply(text).utf8).write(to: directory.appendingPathComponent(names.apply(file)))
        }
        let package = copy.appendingPathComponent("Package.swift")
        var text = try String(contentsOf: package, encoding: .utf8)
        let targets = try #require(text.range(of: #"targets:\s*\[[ \t]*(?=\n)"#, options: .regularExpression), "no `targets: [` line")
        text.insert(contentsOf: names.apply(#"\#n        .target(name: "TasksInterface", dependencies: ["ModuleHost"], plugins: ["ABIIdentityGenerator"]), .target(name: "TasksModule", dependencies: ["ModuleHost", "TasksInterface"]),"#),
                    at: targets.upperBound)
        let host = try #require(text.range(of: #"name: "AppShell",\s*dependencies: \[[^\]]*"#, options: .regularExpression), "no AppShell dependencies")
        text.insert(contentsOf: names.apply(#", "TasksModule""#), at: host.upperBound)
        for target in Self.otherTestTargets {
            let declaration = #".testTarget(name: "\#(target)""#
            try #require(text.contains(declaration), "Package.swift no longer contains \(declaration)")
            text = text.replacingOccurrences(of: declaration, with: "// " + declaration)
        }
        try Data(text.utf8).write(to: package)
        let modules = copy.appendingPathComponent("modules.json")
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: modules)) as? [String: Any])
        manifest["modules"] = (manifest["modules"] as? [Any] ?? []) + [["type": names.apply("TasksModule.TasksModule")]]
        try JSONSerialization.data(withJSONObject: manifest, options: [.prettyPrinted]).write(to: modules)
    }

    /// How many modules the copy's `modules.json` lists: the test counts what it adds, not the repository's modules.
    private static func moduleCount(in copy: URL) throws -> Int {
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: copy.appendingPathComponent("modules.json"))) as? [String: Any]
        return try #require(manifest?["modules"] as? [Any], "the copy's modules.json has no modules array").count
    }

    /// The lines of a test run's output that say what failed, or its end when none does.
    private static func failures(in output: String) -> String {
        let lines = output.split(separator: "\n").filter { $0.contains("✘") || $0.contains("error:") }
        return lines.isEmpty ? String(output.suffix(4_000)) : lines.prefix(60).joined(separator: "\n")
    }
}

/// Whether this test process runs inside the scratch copy that ``AddingAModuleTests`` makes.
enum ScratchCopy {
    /// Set in the copy's test run, so the copy does not copy itself again.
    static let marker = "MODULEHOST_SCRATCH_COPY"
    static let isInside = ProcessInfo.processInfo.environment[marker] != nil
}
