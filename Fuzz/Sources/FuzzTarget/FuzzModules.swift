import ModuleHost
import protocol ModuleHostSeed.ModuleInitiatorProtocol

// Module types linked into the fuzzer so that the runtime type lookup (`_typeByName`) finds real modules
// for names in the seed corpus, and validation reaches every later check: duplicate identifiers and
// services, missing and disabled requirements, requirement cycles, config decoding and startup overrides.
// They are public so the optimizer keeps their metadata; `allFuzzModules` references them too.

public protocol FuzzAlphaService: Sendable {}
public protocol FuzzBetaService: Sendable {}

extension ModuleIdentifier {
    static let fuzzAlpha: ModuleIdentifier = "fuzz.alpha"
    static let fuzzBeta: ModuleIdentifier = "fuzz.beta"
    static let fuzzGamma: ModuleIdentifier = "fuzz.gamma"
    static let fuzzDelta: ModuleIdentifier = "fuzz.delta"
}

/// Configurable, provides a service, declares two startup operations (one with an optional dependency).
public final class AlphaModule: ConfigurableModule, FuzzAlphaService {
    public struct Configuration: Decodable, Sendable {
        public struct Limits: Decodable, Sendable {
            public var maximum: Int
            public var ratio: Double?
        }
        public var name: String
        public var count: Int?
        public var enabled: Bool?
        public var tags: [String]?
        public var limits: Limits?
        public var table: [String: Int]?
        public var owner: ModuleIdentifier?
    }
    public static let moduleIdentifier: ModuleIdentifier = .fuzzAlpha
    public static let providedServices: [ProvidedService] = [.service(FuzzAlphaService.self, from: AlphaModule.self) { $0 }]
    public static var contributions: [Contribution] { startupOperations.map(Contribution.startupOperation) }
    public static let startupOperations: [ModuleStartupOperation] = [
        ModuleStartupOperation("alpha.prepare", priority: .high) { _ in },
        ModuleStartupOperation("alpha.warm", priority: .asyncHigh, dependencies: ["alpha.prepare"],
                               optionalDependencies: ["echo.start"]) { _ in },
    ]
    public init(context: any ModuleContext) {}
}

/// Requires Alpha, provides a service, declares one operation through the seed protocol.
public final class BetaModule: ModuleProtocol, ModuleInitiatorProtocol, FuzzBetaService {
    public static let moduleIdentifier: ModuleIdentifier = .fuzzBeta
    public static let requiredModules: [ModuleIdentifier] = [.fuzzAlpha]
    public static let providedServices: [ProvidedService] = [.service(FuzzBetaService.self, from: BetaModule.self) { $0 }]
    public static var identifier: String { "beta.load" }
    public static var priority: ModuleStartupOperation.Priority { .afterFirstFrame }
    public static var dependencies: [String] { ["alpha.warm"] }
    public static var operation: StartupOperationBody { {} }
    public init(context: any ModuleContext) {}
}

/// Gamma and Delta require each other (a requirement cycle).
public final class GammaModule: ModuleProtocol {
    public static let moduleIdentifier: ModuleIdentifier = .fuzzGamma
    public static let requiredModules: [ModuleIdentifier] = [.fuzzDelta]
    public init(context: any ModuleContext) {}
}

public final class DeltaModule: ModuleProtocol {
    public static let moduleIdentifier: ModuleIdentifier = .fuzzDelta
    public static let requiredModules: [ModuleIdentifier] = [.fuzzGamma]
    public init(context: any ModuleContext) {}
}

/// Reuses Alpha's identifier (duplicate identifier).
public final class AlphaImpostorModule: ModuleProtocol {
    public static let moduleIdentifier: ModuleIdentifier = .fuzzAlpha
    public init(context: any ModuleContext) {}
}

/// A second provider of Beta's service (duplicate service).
public final class BetaRivalModule: ModuleProtocol, FuzzBetaService {
    public static let moduleIdentifier: ModuleIdentifier = "fuzz.beta-rival"
    public static let providedServices: [ProvidedService] = [.service(FuzzBetaService.self, from: BetaRivalModule.self) { $0 }]
    public init(context: any ModuleContext) {}
}

/// Requires a module nobody provides, close to an existing identifier (suggestions).
public final class OrphanModule: ModuleProtocol {
    public static let moduleIdentifier: ModuleIdentifier = "fuzz.orphan"
    public static let requiredModules: [ModuleIdentifier] = ["fuzz.alpah"]
    public init(context: any ModuleContext) {}
}

/// Declares operations whose dependencies form a cycle and one that names an unknown operation.
public final class LoopModule: ModuleProtocol {
    public static let moduleIdentifier: ModuleIdentifier = "fuzz.loop"
    public static var contributions: [Contribution] { startupOperations.map(Contribution.startupOperation) }
    public static let startupOperations: [ModuleStartupOperation] = [
        ModuleStartupOperation("loop.a", priority: .low, dependencies: ["loop.b"]) { _ in },
        ModuleStartupOperation("loop.b", priority: .low, dependencies: ["loop.a"]) { _ in },
        ModuleStartupOperation("loop.c", priority: .idle, dependencies: ["alpha.warmm"]) { _ in },
    ]
    public init(context: any ModuleContext) {}
}

/// Declares an idle operation that Alpha's "alpha.warm" optionally depends on (a later-phase dependency,
/// unless the manifest moves it).
public final class EchoModule: ModuleInitiatorProtocol, ModuleProtocol {
    public static let moduleIdentifier: ModuleIdentifier = "fuzz.echo"
    public static var identifier: String { "echo.start" }
    public static var priority: ModuleStartupOperation.Priority { .idle }
    public static var operation: StartupOperationBody { {} }
    public init(context: any ModuleContext) {}
}

/// Declares an operation with the same identifier as Alpha's (duplicate operation identifier).
public final class TwinModule: ModuleInitiatorProtocol, ModuleProtocol {
    public static let moduleIdentifier: ModuleIdentifier = "fuzz.twin"
    public static var identifier: String { "alpha.prepare" }
    public static var priority: ModuleStartupOperation.Priority { .high }
    public static var operation: StartupOperationBody { {} }
    public init(context: any ModuleContext) {}
}

/// A configurable module whose configuration is a bare array, not an object.
public final class ListModule: ConfigurableModule {
    public typealias Configuration = [Int]
    public static let moduleIdentifier: ModuleIdentifier = "fuzz.list"
    public init(context: any ModuleContext) {}
}

/// A class that is not a module.
public final class NotAModule {
    public init(context: any ModuleContext) {}
}

/// Every fuzz module, referenced so none is dead-stripped, and named for "did you mean" suggestions.
let allFuzzModules: [any ModuleProtocol.Type] = [
    AlphaModule.self, BetaModule.self, GammaModule.self, DeltaModule.self, AlphaImpostorModule.self,
    BetaRivalModule.self, OrphanModule.self, LoopModule.self, EchoModule.self, TwinModule.self, ListModule.self,
]
let fuzzTypeNames = allFuzzModules.map { String(reflecting: $0) } + [String(reflecting: NotAModule.self)]
