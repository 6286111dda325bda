import Foundation
import ModuleHost
import Synchronization

// The libFuzzer entry point, called once per input by the driver that main.swift starts. It is also exported
// under libFuzzer's standard name, for linking the target the classic way (with libFuzzer's own `main`).
//
// An input whose first byte is 0x00 is a startup graph (see `fuzzPlan`), 0x01 a recipe for a megabyte-sized
// manifest (see `fuzzScaled`); any other input is a manifest,
// so the seed corpus is made of plain `modules.json` files.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    if data.first == 0 {
        fuzzPlan(Array(data.dropFirst()))
    } else if data.first == 1 {
        fuzzScaled(Array(data.dropFirst()))
    } else {
        fuzzManifest(data)
    }
    return 0
}

/// Stops the fuzzer with a message when an invariant of the library does not hold (a logic bug, not a crash).
func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        fatalError("fuzz invariant violated: \(message())")
    }
}

let fuzzResolver = ModuleTypeResolver.runtime(knownTypeNames: fuzzTypeNames)

/// `MODULEHOST_FUZZ_VERBOSE=1` prints what each input produced, for replaying an input by hand.
let verbose = ProcessInfo.processInfo.environment["MODULEHOST_FUZZ_VERBOSE"] != nil

func log(_ text: @autoclosure () -> String) {
    if verbose { print(text()) }
}

// MARK: Manifests

/// Full validation, registration, the registered modules' startup and config decoding.
func fuzzManifest(_ data: Data) {
    let file = "fuzz/modules.json"

    // 1. Validation alone: the JSON parser, the structural checks, type lookup through the Swift runtime,
    //    identifiers, services, requirements, cycles, configs; nothing is registered.
    let validated = ModuleManager(typeResolver: fuzzResolver, maxConcurrentOperations: 2).validateManifest(data, file: file)
    checkDiagnostics(validated, file: file)
    let validationErrors = validated.filter { $0.severity == .error }

    // 2. Registration: the same checks, then the modules are registered.
    let manager = ModuleManager(typeResolver: fuzzResolver, maxConcurrentOperations: 2)
    var registered = false
    do {
        let warnings = try manager.registerModules(from: data, file: file)
        registered = true
        invariant(warnings.allSatisfy { $0.severity == .warning }, "registerModules returned an error as a warning")
        log("registered: \(manager.modules.map(\.identifier)); warnings: \(warnings.map(\.code))")
        // 3. Validation and registration agree.
        invariant(validationErrors.isEmpty, "registerModules accepted data that validateManifest rejected: \(validationErrors)")
        invariant(warnings == validated, "registerModules warned \(warnings.map(\.code)), validateManifest \(validated.map(\.code))")
    } catch {
        checkManifestError(error, file: file)
        invariant(error.diagnostics.filter { $0.severity == .error } == validationErrors,
                  "registerModules failed with \(error.diagnostics.filter { $0.severity == .error }.map(\.code)), validateManifest with \(validationErrors.map(\.code))")
    }

    if registered {
        // 4. Registering the same modules again must clash, never succeed or crash.
        if !manager.modules.isEmpty {
            do {
                try manager.registerModules(from: data, file: file)
                invariant(false, "the same manifest registered twice on one manager")
            } catch {
                checkManifestError(error, file: file)
                invariant(error.diagnostics.filter { $0.severity == .error }.contains { $0.code == .duplicateIdentifier }, "second registration failed without a duplicate identifier")
            }
        }
        // 5. The registered modules' startup operations with the manifest's overrides, planned and run.
        runStartup(manager.initiator, count: nil, started: nil)
    }

    // 6. The whole input as AlphaModule's config in a manifest entry: the config is parsed, then decoded by
    //    Foundation's JSONDecoder at registration, and must then be readable.
    let entry = "{\"version\": 1, \"modules\": [{\"type\": \"FuzzTarget.AlphaModule\", \"config\": "
    var configured = Data(entry.utf8)
    configured.append(data)
    configured.append(contentsOf: Array("}]}".utf8))
    let configManager = ModuleManager(typeResolver: fuzzResolver, maxConcurrentOperations: 2)
    do {
        _ = try configManager.registerModules(from: configured, file: nil)
        do {
            _ = try configManager.configuration(for: AlphaModule.self)
        } catch {
            invariant(false, "a config registration accepted cannot be read: \(error)")
        }
    } catch {
        checkManifestError(error, file: nil)
    }
}

/// Every diagnostic has a message and, if located, a line and column of at least 1.
func checkDiagnostics(_ diagnostics: [ManifestDiagnostic], file: String?) {
    for diagnostic in diagnostics {
        invariant(!diagnostic.message.isEmpty, "a diagnostic without a message: \(diagnostic.code)")
        if let line = diagnostic.line, let column = diagnostic.column {
            invariant(line >= 1 && column >= 1, "a diagnostic at \(line):\(column): \(diagnostic)")
        }
        invariant((diagnostic.line == nil) == (diagnostic.column == nil), "a diagnostic with half a location: \(diagnostic)")
        _ = diagnostic.description
    }
}

func checkManifestError(_ error: ManifestError, file: String?) {
    log(error.description)
    invariant(!error.diagnostics.filter { $0.severity == .error }.isEmpty, "a ManifestError without an error diagnostic: \(error.diagnostics)")
    for diagnostic in error.diagnostics {
        invariant(diagnostic.file == file, "a diagnostic for \(diagnostic.file ?? "nil") instead of \(file ?? "nil")")
    }
    for diagnostic in error.diagnostics {
        invariant(!diagnostic.message.isEmpty, "a diagnostic without a message: \(diagnostic.code)")
        if let line = diagnostic.line, let column = diagnostic.column {
            invariant(line >= 1 && column >= 1, "a diagnostic at \(line):\(column): \(diagnostic)")
        }
        invariant((diagnostic.line == nil) == (diagnostic.column == nil), "a diagnostic with half a location: \(diagnostic)")
    }
    _ = error.description
}

// MARK: Startup plans

/// Reads fuzz bytes as a small startup graph: operation count, then per operation its identifier, phase and
/// dependencies, some of them unknown, empty, duplicated or close to a real identifier.
func fuzzPlan(_ bytes: [UInt8]) {
    var reader = ByteReader(bytes)
    let count = Int(reader.next() % 48)
    let phases = ModuleStartupOperation.Priority.allCases
    let initiator = Initiator(maxConcurrentOperations: 2)
    let started = StartRecorder()
    for index in 0..<count {
        let flags = reader.next()
        let identifier: String
        switch flags & 0x07 {
        case 0: identifier = ""
        case 1: identifier = "op\(Int(reader.next()) % max(1, index))"  // may duplicate an earlier one
        case 2: identifier = "Op\(index)"
        case 3: identifier = "op\(index).\u{E9}\u{1F600}"
        default: identifier = "op\(index)"
        }
        let priority = phases[Int(flags >> 4) % phases.count]
        var dependencies: [String] = []
        for _ in 0..<(reader.next() % 5) {
            let target = reader.next()
            switch target {
            case 0xF0: dependencies.append("")
            case 0xF1: dependencies.append("op\(count + Int(reader.next()))")  // unknown
            case 0xF2: dependencies.append("op\(Int(reader.next()) % max(1, count))x")  // a typo
            case 0xF3: dependencies.append("OP\(Int(reader.next()) % max(1, count))")  // case differs
            case 0xF4: dependencies.append(identifier)  // itself
            default: dependencies.append("op\(Int(target) % max(1, count))")
            }
        }
        let module: ModuleIdentifier? = flags & 0x08 == 0 ? nil : ModuleIdentifier(rawValue: "fuzz.m\(index % 3)")
        do {
            try initiator.add(identifier, module: module, priority: priority, dependencies: dependencies) {
                started.append(identifier)
            }
        } catch {
            invariant(false, "add before start failed: \(error)")
        }
    }
    runStartup(initiator, count: count, started: started)
}

/// The identifiers of the operation bodies of one startup, in the order they started.
final class StartRecorder: Sendable {
    private let started = Mutex<[String]>([])

    func append(_ identifier: String) {
        started.withLock { $0.append(identifier) }
    }

    var identifiers: [String] { started.withLock { $0 } }
}

/// Runs `initiator`'s whole startup (every phase) and waits for it. An invalid plan must throw an
/// `InitiatorError` with code `invalidPlan` and run nothing; a valid one must list every operation once, in an
/// order that keeps phases in order and puts every dependency first, and must run them in such an order.
func runStartup(_ initiator: Initiator, count: Int?, started: StartRecorder?) {
    let done = DispatchSemaphore(value: 0)
    let outcome = Mutex<(report: StartupReport?, planError: InitiatorError?, other: (any Error)?)>((nil, nil, nil))
    Task {
        do {
            try await initiator.start()
            let report = await initiator.drain()
            outcome.withLock { $0.report = report }
        } catch let error as InitiatorError where error.code == .invalidPlan {
            outcome.withLock { $0.planError = error }
        } catch {
            // A required operation that timed out (a manifest may set 1 ms): startup stops; still check the report.
            outcome.withLock { $0.other = error }
            let report = await initiator.drain()
            outcome.withLock { $0.report = report }
        }
        done.signal()
    }
    done.wait()
    let (report, planError, other) = outcome.withLock { $0 }
    if let planError {
        checkPlanError(planError)
        invariant(started?.identifiers.isEmpty ?? true, "an invalid plan ran \(started?.identifiers ?? [])")
        invariant(initiator.report.isComplete, "an invalid plan left operations pending")
        return
    }
    guard let report else { return invariant(false, "startup finished without a report") }
    if let other {
        log("startup stopped: \(other)")
        invariant(other is InitiatorError, "start() threw \(type(of: other)): \(other)")
    }
    checkReport(report, count: count, started: started?.identifiers, stopped: other != nil)
}

func checkReport(_ report: StartupReport, count: Int?, started: [String]?, stopped: Bool) {
    let order = report.operations.map(\.identifier)
    log("plan: \(order)")
    if let count {
        invariant(order.count == count, "the report has \(order.count) of \(count) operations")
    }
    var position: [String: Int] = [:]
    for (index, identifier) in order.enumerated() {
        invariant(!identifier.isEmpty, "an empty identifier in a valid plan")
        invariant(position.updateValue(index, forKey: identifier) == nil, "\"\(identifier)\" is twice in the order")
    }
    var previous = ModuleStartupOperation.Priority.allCases[0]
    for record in report.operations {
        invariant(record.phase >= previous, "phases out of order at \"\(record.identifier)\"")
        previous = record.phase
        invariant(record.state != .pending && record.state != .running, "\"\(record.identifier)\" is \(record.state) after drain()")
        for dependency in record.dependencies {
            guard let dependencyPosition = position[dependency], let own = position[record.identifier] else {
                invariant(false, "\"\(record.identifier)\" depends on \"\(dependency)\", which is not in the order")
                return
            }
            invariant(dependencyPosition < own, "\"\(record.identifier)\" is ordered before its dependency \"\(dependency)\"")
            if record.state == .succeeded, let dependencyRecord = report.operations.first(where: { $0.identifier == dependency }) {
                invariant(dependencyRecord.state == .succeeded, "\"\(record.identifier)\" succeeded after its dependency \(dependencyRecord.state)")
                if let finished = dependencyRecord.finishedAt, let began = record.startedAt {
                    invariant(finished <= began, "\"\(record.identifier)\" started before its dependency \"\(dependency)\" finished")
                }
            }
        }
    }
    if !stopped, count != nil {
        invariant(report.isSuccessful, "no-op operations did not all succeed: \(report.operations.filter(\.state.isProblem).map(\.identifier))")
    }
    if let started {
        // Bodies start in an order that keeps phases in order and puts every dependency first.
        invariant(Set(started).count == started.count, "an operation ran twice: \(started)")
        var startedAt: [String: Int] = [:]
        for (index, identifier) in started.enumerated() { startedAt[identifier] = index }
        var previousPhase = ModuleStartupOperation.Priority.allCases[0]
        for identifier in started {
            guard let record = report.operations.first(where: { $0.identifier == identifier }) else { return invariant(false, "\"\(identifier)\" ran but is not reported") }
            invariant(record.phase >= previousPhase, "\"\(identifier)\" ran after a later phase had begun")
            previousPhase = record.phase
            for dependency in record.dependencies {
                invariant((startedAt[dependency] ?? Int.max) < startedAt[identifier]!, "\"\(identifier)\" ran before its dependency \"\(dependency)\"")
            }
        }
        if !stopped {
            invariant(started.count == report.operations.count, "\(started.count) of \(report.operations.count) operations ran")
        }
    }
    _ = report.criticalPath
    _ = report.totals
}

func checkPlanError(_ error: InitiatorError) {
    log(error.description)
    invariant(!error.problems.isEmpty, "an invalid-plan InitiatorError without problems")
    for problem in error.problems {
        invariant(!problem.message.isEmpty, "a plan problem without a message: \(problem.code)")
    }
    _ = error.description
}

/// Hands out input bytes one at a time, then zeros.
struct ByteReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func next() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }
}
