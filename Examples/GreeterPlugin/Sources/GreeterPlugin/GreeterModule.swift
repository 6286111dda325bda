import ModuleHost
import ModuleHostRouting

/// Greets people; provided by the Greeter plugin and used through the bridge like any other service.
public protocol GreetingService: Sendable {
    /// A greeting for `name`.
    func greeting(for name: String) -> String
}

/// A module that lives in a plugin library: named in modules.json with its `library`, loaded at startup.
public final class GreeterModule: ModuleProtocol, GreetingService {
    /// `com.example.greeter`.
    public static let moduleIdentifier: ModuleIdentifier = "com.example.greeter"
    /// Provides ``GreetingService``.
    public static let providedServices: [ProvidedService] = [.service(GreetingService.self, from: GreeterModule.self) { $0 }]
    /// `greet <name>`, so the shell can reach the plugin without knowing its protocol; and a route another program
    /// may open, `modulehost://app/greeter/hello/<name>`; and a startup operation, `greeter.warm-up`, which runs with
    /// the other concurrent blocking operations (a real plugin would load its resources there).
    public static let contributions: [Contribution] = [
        .command(ModuleCommand("greet", usage: "greet <name>", summary: "a greeting from the Greeter plugin") { context in
            let greeting = try context.manager.bridge.resolve(GreetingService.self).greeting(for: context.arguments.first ?? "world")
            return .text(greeting)
        }),
        .route(ModuleRoute("greeter.hello", pattern: "/greeter/hello/:name", parameters: [.text("name", maxLength: 64)],
                           isAccessibleExternally: true, summary: "a greeting by link") { request in
            let greeting = try request.manager.bridge.resolve(GreetingService.self)
            return .text(greeting.greeting(for: request.parameters.text("name") ?? "world"))
        }),
        .startupOperation(ModuleStartupOperation("greeter.warm-up", priority: .asyncHigh) { _ in }),
    ]

    /// Creates the module.
    public init(context: any ModuleContext) {}

    /// "Hello, <name>, from a plugin!"
    public func greeting(for name: String) -> String {
        "Hello, \(name), from a plugin!"
    }
}

/// A class in the plugin that is not a module, so a manifest naming it is refused.
public final class GreeterHelper {
    /// Creates a helper.
    public init() {}
}
