import Foundation

import Testing
@testable import ModuleHost

/// Bugs found during the fuzzing campaign over manifest decoding, validation and plan validation (see
/// Fuzz/README.md), by probing hostile inputs and by review; libFuzzer itself found no crash. Each test feeds the
/// input to the same API the fuzzer calls and asserts on diagnostics or on work done, never on time.
///
/// Came from Regression/ (added in 8af188f, during the fuzzing campaign);
/// now filed under the feature it protects.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    /// Counts the type lookups a resolver makes.
    final class CountingResolver: Sendable {
        private let lookups = Locked(0)
        private let wrapped: ModuleTypeResolver

        init(_ wrapped: ModuleTypeResolver) {
            self.wrapped = wrapped
        }

        var count: Int { lookups.withLock { $0 } }

        var resolver: ModuleTypeResolver {
            ModuleTypeResolver(knownTypeNames: wrapped.knownTypeNames) { [self] name in
                lookups.withLock { $0 += 1 }
                return wrapped.type(named: name)
            }
        }
    }

    private func errors(_ json: String, resolver: ModuleTypeResolver = .runtime()) -> [ManifestDiagnostic] {
        do {
            try ModuleManager(typeResolver: resolver).registerModules(from: Data(json.utf8), file: "modules.json")
            Issue.record("expected the manifest to be rejected")
            return []
        } catch {
            return error.errors
        }
    }

    // MARK: Unknown type names cost quadratically many runtime lookups

    /// `ManifestValidator.validate()` computes "did you mean" candidates by filtering every candidate name
    /// (each entry's name and two guesses) through `resolver.type(named:)` again for every unknown entry:
    /// 3·N² lookups for N unknown names. With the runtime resolver a miss scans the type metadata (~45 µs),
    /// so a 1.6 KB manifest of 400 unknown names took 14 s and a 4 KB one of 1,000 names about 90 s.
    /// Found by probing hostile inputs with the fuzz binary. One lookup per distinct name is enough.
    @Test func unknownTypeNamesCostALinearNumberOfLookups() throws {
        let count = 300
        let counter = CountingResolver(.types([BaseModule.self, GreeterModule.self]))
        let names = (0..<count).map { "\"Hostile.Name\($0)\"" }
        let found = errors(#"{"modules": ["ModuleHostTests.BaseModul", "# + names.joined(separator: ", ") + "]}",
                           resolver: counter.resolver)
        #expect(found.count == count + 1)
        #expect(found.allSatisfy { $0.code == .unknownType })
        #expect(found.first?.suggestion == "did you mean \"ModuleHostTests.BaseModule\"?")
        // 301 entry names and at most 602 distinct guesses; before the fix: about 3 × 301² = 271,803 lookups.
        #expect(counter.count <= 5 * (count + 1), "\(counter.count) type lookups for \(count + 1) entries")
    }

    /// The exact input of the fuzzer's timeout artifact (timeout-5c580833510e9ead3e6705a5f3f6404e96d2778d, 2.3 KB,
    /// 13 s in the fuzz build): 300 unknown names, looked up through the Swift runtime as the fuzzer does.
    @Test func timeoutArtifactOfThreeHundredUnknownNames() throws {
        let json = #"{"modules": ["# + (0..<300).map { "\"a\($0)\"" }.joined(separator: ", ") + "]}"
        #expect(json.utf8.count == 2_303)
        let counter = CountingResolver(.runtime())
        let found = errors(json, resolver: counter.resolver)
        #expect(found.count == 300)
        #expect(found.allSatisfy { $0.code == .unknownType && $0.message.contains("qualified with their Swift module") })
        #expect(found.last?.path == "modules[299].type")
        #expect(counter.count <= 5 * 300, "\(counter.count) type lookups for 300 entries")
    }

    @Test func manyUnknownTypeNamesAreAllReportedWithTheRuntimeResolver() throws {
        let names = (0..<64).map { "\"a\($0)\"" } + ["\"ModuleHostTests.GreeterModul\""]
        let found = errors(#"{"modules": ["# + names.joined(separator: ",") + "]}",
                           resolver: .runtime(knownTypeNames: ["ModuleHostTests.GreeterModule"]))
        #expect(found.count == 65)
        #expect(found.allSatisfy { $0.code == .unknownType })
        #expect(found.last?.suggestion == "did you mean \"ModuleHostTests.GreeterModule\"?")
        #expect(found.first?.message.contains("qualified with their Swift module") == true)
    }

    // MARK: A sub-millisecond timeout is accepted as a zero timeout

    /// `ManifestReader.Context.readOverrides` accepts any timeout `> 0` and stores
    /// `.milliseconds(Int64((seconds * 1000).rounded()))`, so 0.0004 s (or 1e-300 s) becomes a timeout of zero,
    /// under which an operation's timeout task wins the race at once and the operation is marked timed out.
    /// Found by review; the fuzz target now checks it (`checkOverrides`). A fix may reject such values or keep them positive.
    @Test(arguments: ["0.0004", "1e-300", "0.00049"])
    func subMillisecondTimeoutIsNeverZero(timeout: String) throws {
        let json = #"{"modules": [{"type": "X.Y", "timeout": \#(timeout), "operations": {"x.op": {"timeout": \#(timeout)}}}]}"#
        let manifest: Manifest
        do {
            manifest = try Manifest.decode(Data(json.utf8), file: "modules.json")
        } catch {
            // Rejecting the value is a valid fix.
            #expect(error.errors.map(\.code) == [.invalidValue, .invalidValue])
            #expect(error.errors.map(\.path) == ["modules[0].timeout", "modules[0].operations.x.op.timeout"])
            return
        }
        // So is keeping it positive.
        let startup = manifest.modules[0].startup
        let moduleTimeout = try #require(startup.timeout)
        let operationTimeout = try #require(startup.resolved(for: "x.op").timeout)
        #expect(moduleTimeout > .zero, "timeout \(timeout) was accepted as \(moduleTimeout)")
        #expect(operationTimeout > .zero, "operation timeout \(timeout) was accepted as \(operationTimeout)")
    }

    @Test func oneMillisecondTimeoutIsKept() throws {
        let manifest = try Manifest.decode(Data(#"{"modules": [{"type": "X.Y", "timeout": 0.001}]}"#.utf8))
        #expect(manifest.modules[0].startup.timeout == .milliseconds(1))
    }

    // MARK: Duplicate operation keys are silently merged

    /// Repeated fields are errors at the root and in entries ("field appears more than once"), but a repeated
    /// key in an entry's `operations` object silently keeps the last value (`entry.startup.operations[key] = ...`
    /// in `ManifestReader.Context.readEntry`). Found by review while writing the fuzz target.
    @Test func repeatedOperationKeyIsReported() throws {
        let json = """
            {"modules": [{"type": "X.Y", "operations": {
              "x.op": {"priority": "low"},
              "x.op": {"priority": "high"}
            }}]}
            """
        do {
            _ = try Manifest.decode(Data(json.utf8), file: "modules.json")
            Issue.record("a repeated operation key was accepted")
        } catch {
            let found = error.errors
            #expect(found.map(\.code) == [.invalidValue])
            #expect(found.first?.path == "modules[0].operations.x.op")
            #expect(found.first?.message.contains("more than once") == true)
            #expect(found.first?.location == ManifestDiagnostic.Location(line: 3, column: 3))
        }
    }
}
