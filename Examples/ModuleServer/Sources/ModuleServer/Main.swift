#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging

/// `module-server`: logs to standard output; exits 0 after a graceful shutdown, 1 when the modules or the
/// server failed, 2 for a bad command line.
@main
enum ServerCommand {
    static func main() async {
        LoggingSystem.bootstrap(StreamLogHandler.standardOutput)
        var logger = Logger(label: "module-server")
        let options: ServerOptions
        do {
            options = try ServerOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            logger.critical("\(error)")
            exit(2)
        }
        logger.logLevel = options.logLevel
        do {
            try await ModuleServer(options: options, logger: logger).run()
            logger.notice("stopped")
        } catch {
            logger.critical("stopped with an error: \(error)")
            exit(1)
        }
    }
}
