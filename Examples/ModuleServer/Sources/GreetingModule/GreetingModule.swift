import Hummingbird
import Logging
import ModuleHost
import ServerInterface
import Synchronization

extension ModuleIdentifier {
    /// `example.greeting`.
    public static let greeting: ModuleIdentifier = "example.greeting"
}

/// Serves `GET /hello` and `GET /hello/{name}` with the greeting from its manifest entry's config.
public final class GreetingModule: ConfigurableModule, RouteContributing {
    /// The manifest entry's `config`: `{"greeting": "Hello"}`.
    public struct Configuration: Decodable, Sendable {
        /// The word before the name.
        public var greeting: String
    }

    public static let moduleIdentifier: ModuleIdentifier = .greeting

    /// A blocking startup operation (the server reports itself running only after it), and its routes, through
    /// the server's extension point.
    public static let contributions: [Contribution] = [
        .startupOperation(ModuleStartupOperation("greeting.prepare", priority: .asyncHigh) { context in
            Logger(label: "example.greeting").info("greeting prepared")
        }),
        .module(GreetingModule.self, to: .httpRoutes) { $0 },
    ]

    private let greeting = Greeting()
    private let logger = Logger(label: "example.greeting")

    public init(context: any ModuleContext) {}

    public func moduleDidLoad(with manager: any ModuleContext) throws {
        greeting.set(try manager.configuration(for: GreetingModule.self).greeting)
    }

    public func addRoutes(to router: Router<BasicRequestContext>) {
        let greeting = greeting
        router.get("hello") { _, _ in "\(greeting.word), world!\n" }
        router.get("hello/:name") { _, context in
            "\(greeting.word), \(context.parameters.get("name") ?? "world")!\n"
        }
    }

    /// Stands in for flushing a file: a real suspension that shutdown awaits.
    public func moduleTearDown() async {
        logger.info("\(TeardownLog.began("\(Self.moduleIdentifier)"))")
        try? await Task.sleep(for: .milliseconds(100))
        logger.info("\(TeardownLog.finished("\(Self.moduleIdentifier)"))")
    }
}

/// The configured greeting, set once at load.
final class Greeting: Sendable {
    private let storage = Mutex("Hello")
    var word: String { storage.withLock { $0 } }
    func set(_ word: String) { storage.withLock { $0 = word } }
}
