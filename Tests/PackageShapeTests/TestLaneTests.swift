import Foundation
import Testing

/// The test lanes are targets: `AppShellSlowTests` holds every suite that builds a package (a copy of this one, a
/// plugin, another host) or runs terminal trials by the hundred, each of its suites enabled by `SlowLane` only, so a
/// plain `swift test` is the fast lane. A suite elsewhere that starts a package build would slow the fast lane without a word, so this fails.
@Suite("Test lanes")
struct TestLaneTests {
    /// The slow lane's target; its name is the fast lane's one filter (`--skip AppShellSlowTests`).
    static let slowLane = "AppShellSlowTests"

    /// What starts a package build: SwiftPM's build, test and run commands as an argument list or a command line,
    /// or the plugin's build script. The escapes keep this file from matching itself.
    static let buildStarts = [
        "\"swift\", \"build\"", "\"swift\", \"test\"", "\"swift\", \"run\"", "swift\u{20}build ", "build\u{2E}sh",
    ]

    /// Swift files of the test targets other than the slow lane's, as paths under `Tests/`.
    private func fastLaneFiles() throws -> [String] {
        let tests = PackageDump.root.appendingPathComponent("Tests")
        let enumerator = try #require(FileManager.default.enumerator(atPath: tests.path))
        return enumerator.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix(Self.slowLane + "/") }
    }

    @Test func noSuiteOutsideTheSlowLaneBuildsAPackage() throws {
        let tests = PackageDump.root.appendingPathComponent("Tests")
        let files = try fastLaneFiles()
        var offenders: [String] = []
        for path in files {
            let text = try String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)
            offenders += Self.buildStarts.filter(text.contains).map { "Tests/\(path) starts a build with \($0)" }
        }
        #expect(files.count > 100, "too few test files found: \(files.count)")
        #expect(offenders.isEmpty, """
            a suite outside \(Self.slowLane) builds a package; move it to Tests/\(Self.slowLane):
            \(offenders.joined(separator: "\n"))
            """)
    }

    /// Every suite of the slow lane runs on request only (a plain `swift test` is the fast lane), and CI asks for it.
    @Test func theSlowLaneRunsOnRequestAndCIRequestsIt() throws {
        let slow = PackageDump.root.appendingPathComponent("Tests/\(Self.slowLane)")
        var suites = 0, offenders: [String] = [], enabled: Set<String> = []
        var texts: [(file: String, text: String)] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: slow.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: slow.appendingPathComponent(file), encoding: .utf8)
            texts.append((file, text))
            // Every suite, at any indentation, carries the trait on its `@Suite(` line.
            let lines = text.split(separator: "\n").map(String.init)
            for (index, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces).hasPrefix("@Suite") {
                suites += 1
                guard line.contains("SlowLane.isRequested") else {
                    offenders.append("\(file): \(line)")
                    continue
                }
                if let type = lines[(index + 1)...].first(where: { $0.contains("struct ") })?.firstMatch(of: #/struct (\w+)/#) {
                    enabled.insert(String(type.output.1))
                }
            }
        }
        // A test outside such a suite (a free function, or a type with no `@Suite`) would run in the plain lane:
        // each file with tests declares an enabled suite or extends one.
        for (file, text) in texts where text.contains("@Test") && !text.contains("SlowLane.isRequested") {
            let extended = text.matches(of: #/extension (\w+)/#).map { String($0.output.1) }
            if !extended.contains(where: enabled.contains) { offenders.append("\(file): tests outside a slow-lane suite") }
        }
        #expect(suites >= 10, "too few slow suites found: \(suites)")
        #expect(offenders.isEmpty, "a slow suite that runs in a plain swift test:\n\(offenders.joined(separator: "\n"))")
        let ci = try String(contentsOf: PackageDump.root.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(ci.contains("export MODULEHOST_SLOW_LANE=1"), ".ci/run does not run the slow lane")
    }

    /// The check sees a build: each pattern matches the slow lane's own build steps.
    @Test func theCheckSeesABuildInTheSlowLane() throws {
        let slow = PackageDump.root.appendingPathComponent("Tests/\(Self.slowLane)")
        let texts = try FileManager.default.contentsOfDirectory(atPath: slow.path).filter { $0.hasSuffix(".swift") }
            .map { try String(contentsOf: slow.appendingPathComponent($0), encoding: .utf8) }
        let seen = Self.buildStarts.filter { pattern in texts.contains { $0.contains(pattern) } }
        #expect(Set(seen).isSuperset(of: [Self.buildStarts[0], Self.buildStarts[1], Self.buildStarts[4]]), "\(seen)")
    }
}
