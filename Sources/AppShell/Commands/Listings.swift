import ModuleHost
internal import ModuleHostRendering
import ModuleHostRouting

/// Tables (or, under `--json`, documents) of modules, services, routes and the startup report, for the commands and
/// subcommands that list them.
struct Listings {
    let console: Console

    private var json: Bool { console.isJSON }

    /// The startup report as a table, cut to the terminal's width unless `full`; under `--json` one document.
    func startupReport(_ report: StartupReport, full: Bool) {
        if json { return console.json("startupReport", report) }
        console.out(report.renderTable(useColor: console.outputColor, width: full ? nil : TerminalWidth.current()))
    }

    func modules(_ modules: [ModuleDescription]) {
        if json { return console.json("modules", modules) }
        let rows = modules.map { module in
            [module.identifier.rawValue, module.typeName, module.state.rawValue + (module.eager ? " (eager)" : ""),
             module.services.isEmpty ? "-" : module.services.joined(separator: ", ")]
        }
        table(["MODULE", "TYPE", "STATE", "SERVICES"], rows)
        for module in modules {
            if let failure = module.failure { console.error("\(module.identifier): \(failure)") }
        }
    }

    /// Who provides what, read from the modules' declarations: listing loads nothing. A service's status is its
    /// provider's state (`registered` until something uses it, then `loaded`, or `failed: <why>`).
    func services(_ manager: ModuleManager) {
        struct Row: Codable {
            let service: String
            let provider: ModuleIdentifier
            let status: String
        }
        let states = Dictionary(manager.modules.map { ($0.identifier, $0) }, uniquingKeysWith: { $1 })
        let rows = manager.bridge.services.map { service in
            let module = states[service.provider]
            let status = module.map { $0.failure.map { "failed: \($0)" } ?? $0.state.rawValue } ?? "unknown"
            return Row(service: service.name, provider: service.provider, status: status)
        }
        if json { return console.json("services", rows) }
        table(["SERVICE", "PROVIDER", "STATUS"], rows.map { [$0.service, $0.provider.rawValue, $0.status] })
    }

    /// The routes, with the links' scheme and host; under `--json` a `routes` document.
    func routes(_ router: ModuleRouter) {
        struct Document: Encodable {
            let settings: RoutingSettings
            let routes: [RouteDescription]
        }
        let settings = router.settings
        if json { return console.json("routes", Document(settings: settings, routes: router.routes)) }
        let rows = router.routes.map { route in
            [route.module.rawValue, route.pattern, route.identifier, route.isExternal ? "yes" : "no", route.summary]
        }
        table(["MODULE", "PATTERN", "ROUTE", "EXTERNAL", "SUMMARY"], rows)
        let external = settings.externalSchemes.first.map { "\($0)://\(settings.host)/<path> from other programs; " } ?? ""
        console.out("Links: \(external)\(settings.scheme)://\(settings.host)/<path> or /<path> inside the app.")
    }

    private func table(_ header: [String], _ rows: [[String]]) {
        let lines = TextTable(columns: header.map { TextTable.Column($0) }, rows: rows, lineWidth: TerminalWidth.current()).lines()
        if let first = lines.first { console.out(console.styled(first, .bold)) }
        lines.dropFirst().forEach { console.out($0) }
    }
}
