import ModuleHost
import Swinject
import Synchronization

// MARK: The service and its providers

/// The resolved service: a protocol, so every resolve returns an existential, as in real apps.
protocol BenchService: Sendable {
    func value() -> Int
}

extension ModuleIdentifier {
    static let benchResolve: ModuleIdentifier = "com.modulehost.bench.resolve"
}

/// The module that provides `BenchService` through the bridge.
final class ResolveBenchModule: ModuleProtocol, BenchService {
    static let moduleIdentifier: ModuleIdentifier = .benchResolve
    static let providedServices: [ProvidedService] = [.service(BenchService.self, from: ResolveBenchModule.self) { $0 }]
    init() {}
    convenience init(context: any ModuleContext) { self.init() }
    func value() -> Int { 42 }
}

/// The same service for Swinject.
final class SwinjectBenchService: BenchService {
    func value() -> Int { 42 }
}

// MARK: Baselines written here

/// The baseline: a `Mutex`-guarded dictionary from type identity to object, and a generic `as! T` cast.
///
/// Values are `AnyObject & Sendable` rather than plain `AnyObject` only because Swift 6 will not return a
/// non-Sendable value out of `Mutex.withLock`; the representation and the cast are the same.
final class MutexTable: Sendable {
    private let storage = Mutex<[ObjectIdentifier: any AnyObject & Sendable]>([:])

    func insert<T>(_ object: any AnyObject & Sendable, for type: T.Type) {
        storage.withLock { $0[ObjectIdentifier(type)] = object }
    }

    @inline(__always)
    func resolve<T>(_ type: T.Type) -> T {
        let key = ObjectIdentifier(type)
        guard let object = storage.withLock({ $0[key] }) else { fatalError("nothing stored for \(T.self)") }
        return object as! T
    }
}

/// A manager with `ResolveBenchModule` registered and already loaded (every resolve below is warm).
func makeWarmManager() -> ModuleManager {
    let manager = ModuleManager(typeResolver: .types([ResolveBenchModule.self]))
    do {
        try manager.register(ResolveBenchModule.self)
        _ = try manager.bridge.resolve(BenchService.self)
        _ = try manager.bridge.resolve(.benchResolve)
    } catch {
        fatalError("could not set up the resolve benchmark: \(error)")
    }
    return manager
}

// MARK: resolve

func resolveBenchmarks(quick: Bool) -> [Row] {
    let manager = makeWarmManager()
    let bridge = manager.bridge
    let identifier = ModuleIdentifier.benchResolve

    let table = MutexTable()
    table.insert(ResolveBenchModule(), for: BenchService.self)

    let container = Container()
    container.register(BenchService.self) { _ in SwinjectBenchService() }.inObjectScope(.container)
    let swinject = container.synchronize()
    guard swinject.resolve(BenchService.self) != nil else { fatalError("Swinject did not resolve BenchService") }

    let dependencies = DependenciesReader()
    guard dependencies.service.value() == 42 else { fatalError("swift-dependencies did not resolve BenchService") }

    let cases = [
        MicroCase(name: "baseline") { n in
            for _ in 0..<n { blackHole(table.resolve(BenchService.self)) }
        },
        MicroCase(name: "service") { n in
            for _ in 0..<n { blackHole(try! bridge.resolve(BenchService.self)) }
        },
        MicroCase(name: "identifier") { n in
            for _ in 0..<n { blackHole(try! bridge.resolve(identifier)) }
        },
        MicroCase(name: "swinject") { n in
            // Swinject is ~15x slower per call: fewer calls keep its batches as long as the others'.
            for _ in 0..<max(1, n / 16) { blackHole(swinject.resolve(BenchService.self)) }
        },
        MicroCase(name: "dependencies") { n in
            // Like Swinject, slower per call: fewer calls per batch.
            for _ in 0..<max(1, n / 16) { blackHole(dependencies.service) }
        },
    ]
    let iterations = quick ? 100_000 : 400_000
    let stats = measureInterleaved(cases, iterations: iterations, repetitions: quick ? 5 : 15)
    let baseline = stats["baseline"]!.median
    let service = stats["service"]!.median
    let byIdentifier = stats["identifier"]!.median
    // The Swinject case did n/16 calls per batch.
    let swinjectPerCall = stats["swinject"]!.median * Double(iterations) / Double(max(1, iterations / 16))
    let dependenciesPerCall = stats["dependencies"]!.median * Double(iterations) / Double(max(1, iterations / 16))

    let fastestPeer = dependenciesPerCall <= swinjectPerCall ? (name: "swift-dependencies", perCall: dependenciesPerCall)
                                                             : (name: "Swinject", perCall: swinjectPerCall)
    let baselineName = "Mutex<[ObjectIdentifier: AnyObject]> + as! T"
    return [
        Row(benchmark: "resolve", subject: "bridge.resolve(BenchService.self)", baseline: baselineName,
            ratio: service / baseline, absolute: "\(format(ns: service)) vs \(format(ns: baseline))",
            target: "context", verdict: .info),  // its 0.25x target is retired
        Row(benchmark: "resolve", subject: "bridge.resolve(.identifier)", baseline: baselineName,
            ratio: byIdentifier / baseline, absolute: "\(format(ns: byIdentifier)) vs \(format(ns: baseline))",
            target: "≤ 1.0x", verdict: byIdentifier / baseline <= 1.0 ? .met : .missed),
        Row(benchmark: "resolve", subject: "bridge.resolve(BenchService.self)",
            baseline: "Swinject synchronize().resolve (speed-up)",
            ratio: swinjectPerCall / service, absolute: "\(format(ns: service)) vs \(format(ns: swinjectPerCall))",
            target: "≥ 20x", verdict: swinjectPerCall / service >= 20 ? .met : .missed),
        Row(benchmark: "resolve", subject: "bridge.resolve(.identifier)",
            baseline: "Swinject synchronize().resolve (speed-up)",
            ratio: swinjectPerCall / byIdentifier, absolute: "\(format(ns: byIdentifier)) vs \(format(ns: swinjectPerCall))",
            target: "≥ 20x", verdict: swinjectPerCall / byIdentifier >= 20 ? .met : .missed),
        Row(benchmark: "resolve", subject: "bridge.resolve(BenchService.self)",
            baseline: "swift-dependencies @Dependency read (speed-up)",
            ratio: dependenciesPerCall / service, absolute: "\(format(ns: service)) vs \(format(ns: dependenciesPerCall))",
            target: "context", verdict: .info),
        Row(benchmark: "resolve", subject: "bridge.resolve(BenchService.self)",
            baseline: "the fastest peer, \(fastestPeer.name) (speed-up)",
            ratio: fastestPeer.perCall / service, absolute: "\(format(ns: service)) vs \(format(ns: fastestPeer.perCall))",
            target: "≥ 5x", verdict: fastestPeer.perCall / service >= 5 ? .met : .missed),
        Row(benchmark: "resolve", subject: "bridge.resolve(.identifier)",
            baseline: "the fastest peer, \(fastestPeer.name) (speed-up)",
            ratio: fastestPeer.perCall / byIdentifier, absolute: "\(format(ns: byIdentifier)) vs \(format(ns: fastestPeer.perCall))",
            target: "≥ 5x", verdict: fastestPeer.perCall / byIdentifier >= 5 ? .met : .missed),
    ]
}

// MARK: concurrent resolve

/// Swinject's synchronized resolver, which its documentation makes safe to share between threads.
struct SharedSwinjectResolver: @unchecked Sendable {
    let resolver: any Resolver
}

func concurrentResolveBenchmarks(quick: Bool) -> [Row] {
    let manager = makeWarmManager()
    let bridge = manager.bridge
    let identifier = ModuleIdentifier.benchResolve
    let table = MutexTable()
    table.insert(ResolveBenchModule(), for: BenchService.self)
    let container = Container()
    container.register(BenchService.self) { _ in SwinjectBenchService() }.inObjectScope(.container)
    let swinject = SharedSwinjectResolver(resolver: container.synchronize())
    guard swinject.resolver.resolve(BenchService.self) != nil else { fatalError("Swinject did not resolve BenchService") }

    // The peers are slower per call: they make a sixteenth of the calls, and their throughput is scaled back.
    let cases: [(name: String, work: @Sendable (Int) -> Void)] = [
        ("service", { n in for _ in 0..<n { blackHole(try! bridge.resolve(BenchService.self)) } }),
        ("identifier", { n in for _ in 0..<n { blackHole(try! bridge.resolve(identifier)) } }),
        ("mutex", { n in for _ in 0..<n { blackHole(table.resolve(BenchService.self)) } }),
        ("swinject", { n in for _ in 0..<max(1, n / 16) { blackHole(swinject.resolver.resolve(BenchService.self)) } }),
        ("dependencies", { n in
            let reader = DependenciesReader()
            for _ in 0..<max(1, n / 16) { blackHole(reader.service) }
        }),
    ]
    let calls: [String: Double] = ["swinject": 1.0 / 16, "dependencies": 1.0 / 16]
    let iterations = quick ? 100_000 : 300_000
    for item in cases { _ = runOnTwoThreads(iterations: iterations / 4, item.work) }  // warm-up
    var samples: [String: [Double]] = [:]
    for _ in 0..<(quick ? 5 : 11) {
        for item in cases {
            let wall = runOnTwoThreads(iterations: iterations, item.work)
            // Throughput: resolves per second, both threads together.
            let made = Double(2 * iterations) * (calls[item.name] ?? 1)
            samples[item.name, default: []].append(made / (wall.nanoseconds / 1e9))
        }
    }
    let stats = samples.mapValues(Stats.init)
    let swinjectRate = stats["swinject"]!.median, dependenciesRate = stats["dependencies"]!.median
    let fastest = dependenciesRate >= swinjectRate ? (name: "swift-dependencies", rate: dependenciesRate)
                                                   : (name: "Swinject", rate: swinjectRate)
    func row(_ name: String, _ subject: String, against baseline: (name: String, rate: Double), target: Double?) -> Row {
        let throughput = stats[name]!.median
        let ratio = throughput / baseline.rate
        return Row(benchmark: "concurrent resolve (2 threads)", subject: subject,
                   baseline: "\(baseline.name) (throughput)",
                   ratio: ratio, absolute: String(format: "%.2f vs %.2f M/s", throughput / 1e6, baseline.rate / 1e6),
                   target: target.map { "≥ \(Int($0))x" } ?? "context",
                   verdict: target.map { ratio >= $0 ? .met : .missed } ?? .info)
    }
    let peer = (name: "the fastest peer, \(fastest.name)", rate: fastest.rate)
    return [
        row("service", "bridge.resolve(BenchService.self)", against: peer, target: 5),
        row("identifier", "bridge.resolve(.identifier)", against: peer, target: 5),
        row("service", "bridge.resolve(BenchService.self)",
            against: (name: "Mutex<[ObjectIdentifier: AnyObject]> + as! T", rate: stats["mutex"]!.median), target: nil),
        row("dependencies", "swift-dependencies @Dependency read", against: (name: "Swinject synchronize().resolve", rate: swinjectRate), target: nil),
    ]
}
