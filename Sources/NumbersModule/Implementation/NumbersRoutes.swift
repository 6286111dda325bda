import ModuleHost
import ModuleHostRouting
import NumbersInterface

/// The NumbersModule's routes: a fact by link (`/numbers/fact/:n`, open to other programs), a lucky number that
/// redirects to a fact, and the history (in-app only: it is the user's own).
enum NumbersRoutes {
    static let all: [ModuleRoute] = [
        ModuleRoute("numbers.fact", pattern: "/numbers/fact/:n", parameters: [.integer("n")],
                    isAccessibleExternally: true, summary: "a fact about the integer n") { request in
            try fact(about: request.parameters.integer("n") ?? 0, request)
        },
        ModuleRoute("numbers.lucky", pattern: "/numbers/lucky", isAccessibleExternally: true,
                    summary: "a fact about a lucky number (redirects to /numbers/fact/7)") { request in
            // Never reached: the module's handler redirects every request for this route.
            try fact(about: luckyNumber, request)
        },
        ModuleRoute("numbers.history", pattern: "/numbers/history", query: [.integer("last", in: 1...1_000, required: false)],
                    summary: "the facts you looked up (the last ones with ?last=n)") { request in
            let numbers = try request.manager.bridge.resolve(NumberFactService.self)
            let entries = numbers.history().suffix(request.parameters.integer("last") ?? .max)
            return .text(NumbersCommands.historyText(Array(entries), owner: numbers.currentUser),
                                       value: Array(entries))
        },
    ]

    static let luckyNumber = 7

    /// Where `numbers.lucky` goes.
    static func decision(for request: RouteRequest) -> RouteRequest.Decision {
        request.route == "numbers.lucky" ? .redirect(to: "/numbers/fact/\(luckyNumber)") : .pass
    }

    private static func fact(about number: Int, _ request: RouteRequest) throws -> ModuleCommand.Output {
        let fact = try request.manager.bridge.resolve(NumberFactService.self).fact(about: Int64(number))
        return .text(fact.content, value: fact)
    }
}
