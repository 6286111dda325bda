import Logging

/// The command line: `module-server [--manifest PATH] [--host ADDRESS] [--port NUMBER] [--log-level LEVEL]`.
struct ServerOptions: Equatable {
    /// The manifest listing the modules to run (default `modules.json` in the working directory).
    var manifest = "modules.json"
    /// The address to listen on.
    var host = "127.0.0.1"
    /// The port to listen on; 0 picks a free one (the "listening on" line tells which).
    var port = 8080
    /// The least severe level logged: `--log-level debug` shows the modules' startup events one by one.
    var logLevel: Logger.Level = .info

    /// Why the command line was not understood.
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses `arguments` (without the program name).
    init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let option = rest.popFirst() {
            guard let value = rest.popFirst() else { throw UsageError(description: "\(option) needs a value") }
            switch option {
            case "--manifest": manifest = value
            case "--host": host = value
            case "--port":
                guard let number = Int(value), (0...65_535).contains(number) else {
                    throw UsageError(description: "--port expects a number from 0 to 65535, not \"\(value)\"")
                }
                port = number
            case "--log-level":
                guard let level = Logger.Level(rawValue: value) else {
                    let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
                    throw UsageError(description: "--log-level expects one of \(levels), not \"\(value)\"")
                }
                logLevel = level
            default:
                throw UsageError(description: "unknown option \(option); usage: module-server [--manifest PATH] [--host ADDRESS] [--port NUMBER] [--log-level LEVEL]")
            }
        }
    }
}
