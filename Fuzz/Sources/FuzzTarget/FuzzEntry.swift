import Foundation
import ModuleHost

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

/// Structural decoding, full validation, registration, the resulting startup plan and config decoding.
func fuzzManifest(_ data: Data) {
    let file = "fuzz/modules.json"

    // 1. Structure only (the JSON parser and the field checks).
    var decoded: Manifest?
    do {
        let manifest = try Manifest.decode(data, file: file)
        for entry in manifest.modules {
            checkOverrides(entry.startup, path: entry.path)
        }
        decoded = manifest
    } catch {
        checkManifestError(error, file: file)
    }

    // 2. Full validation: type lookup through the Swift runtime, identifiers, services, requirements, cycles, configs.
    let manager = ModuleManager(typeResolver: fuzzResolver, maxConcurrentOperations: 2)
    var registered = false
    do {
        let warnings = try manager.registerModules(from: data, file: file)
        registered = true
        invariant(warnings.allSatisfy { $0.severity == .warning }, "registerModules returned an error as a warning")
        invariant(decoded != nil, "registerModules accepted data that Manifest.decode rejected")
        log("registered: \(manager.modules.map(\.identifier)); warnings: \(warnings.map(\.code))")
    } catch {
        checkManifestError(error, file: file)
    }

    // 3. The decoded manifest registers exactly when the data does.
    if let decoded {
        let other = ModuleManager(typeResolver: fuzzResolver, maxConcurrentOperations: 2)
        do {
            try other.registerModules(from: decoded)
            invariant(registered, "registerModules(from: Manifest) accepted what registerModules(from: Data) rejected")
        } catch {
            checkManifestError(error, file: file)
            invariant(!registered, "registerModules(from: Manifest) rejected what registerModules(from: Data) accepted")
        }
    }

    if registered {
        // 4. Registering the same modules again must clash, never succeed or crash.
        if !manager.modules.isEmpty {
            do {
                try manager.registerModules(from: data, file: file)
                invariant(false, "the same manifest registered twice on one manager")
            } catch {
                checkManifestError(error, file: file)
                invariant(error.errors.contains { $0.code == .duplicateIdentifier }, "second registration failed without a duplicate identifier")
            }
        }
        // 5. The registered modules' startup operations with the manifest's overrides, as one plan.
        do {
            checkPlan(try manager.startupPlan(), operations: manager.startupOperations())
        } catch {
            checkPlanError(error)
        }
    }

    // 6. The whole input as a module configuration, decoded by Foundation's JSONDecoder.
    let configuration = ModuleConfiguration(json: data, path: "modules[0].config")
    do {
        _ = try configuration.decode(AlphaModule.Configuration.self)
    } catch {
        checkManifestError(error, file: nil)
    }
    do {
        _ = try configuration.decode([ModuleIdentifier].self)
    } catch {
        checkManifestError(error, file: nil)
    }
}

/// Accepted overrides must be usable: a timeout the manifest accepts is a positive duration.
func checkOverrides(_ overrides: StartupOverrides, path: String) {
    if let timeout = overrides.timeout {
        invariant(timeout > .zero, "\(path).timeout was accepted but is \(timeout)")
    }
    for (identifier, operation) in overrides.operations {
        checkOverrides(operation, path: "\(path).operations.\(identifier)")
    }
}

func checkManifestError(_ error: ManifestError, file: String?) {
    log(error.description)
    invariant(!error.errors.isEmpty, "a ManifestError without an error diagnostic: \(error.diagnostics)")
    invariant(error.file == file, "a ManifestError for \(error.file ?? "nil") instead of \(file ?? "nil")")
    for diagnostic in error.diagnostics {
        invariant(!diagnostic.message.isEmpty, "a diagnostic without a message: \(diagnostic.code)")
        if let location = diagnostic.location {
            invariant(location.line >= 1 && location.column >= 1, "a diagnostic at \(location): \(diagnostic)")
        }
    }
    _ = error.description
}

// MARK: Startup plans

/// Reads fuzz bytes as a small startup graph: operation count, then per operation its identifier, phase and
/// dependencies, some of them unknown, empty, duplicated or close to a real identifier.
func fuzzPlan(_ bytes: [UInt8]) {
    var reader = ByteReader(bytes)
    let count = Int(reader.next() % 48)
    let phases = Initiator.Priority.allCases
    var operations: [StartupOperation] = []
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
        let module: ModuleIdentifier? = flags & 0x08 == 0 ? nil : ModuleIdentifier("fuzz.m\(index % 3)")
        operations.append(StartupOperation(identifier, module: module, priority: priority, dependencies: dependencies) {})
    }
    do {
        checkPlan(try StartupPlan(operations: operations), operations: operations)
    } catch {
        checkPlanError(error)
    }
}

func checkPlan(_ plan: StartupPlan, operations: [StartupOperation]) {
    let order = plan.order
    log("plan: \(order)")
    invariant(order.count == operations.count, "the order has \(order.count) of \(operations.count) operations")
    var position: [String: Int] = [:]
    for (index, identifier) in order.enumerated() {
        invariant(!identifier.isEmpty, "an empty identifier in a valid plan")
        invariant(position.updateValue(index, forKey: identifier) == nil, "\"\(identifier)\" is twice in the order")
    }
    var previousRank = 0
    for operation in plan.orderedOperations {
        invariant(operation.priority.rank >= previousRank, "phases out of order at \"\(operation.identifier)\"")
        previousRank = operation.priority.rank
        for dependency in operation.dependencies {
            guard let dependencyPosition = position[dependency], let own = position[operation.identifier] else {
                invariant(false, "\"\(operation.identifier)\" depends on \"\(dependency)\", which is not in the order")
                return
            }
            invariant(dependencyPosition < own, "\"\(operation.identifier)\" is ordered before its dependency \"\(dependency)\"")
            invariant(plan.dependents(of: dependency).contains(operation.identifier), "dependents(of: \(dependency)) misses \"\(operation.identifier)\"")
        }
        invariant(plan.phase(of: operation.identifier) == operation.priority, "phase(of:) disagrees for \"\(operation.identifier)\"")
    }
    let byPhase = Initiator.Priority.allCases.flatMap { plan.operations(in: $0) }
    invariant(byPhase == order, "operations(in:) phase by phase differ from the order")
}

func checkPlanError(_ error: StartupPlanError) {
    log(error.description)
    invariant(!error.problems.isEmpty, "a StartupPlanError without problems")
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
