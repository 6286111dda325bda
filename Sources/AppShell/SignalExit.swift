import ModuleHost
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a subcommand that starts no module ends on SIGINT or SIGTERM: at once, with 130 or 143, whatever it is
/// doing (reading the manifest, hashing a large plugin, printing).
///
/// The handlers call only async-signal-safe functions (`write`, `_exit`) and read no state: the text they print
/// is a string literal, and which handler is installed says which text. Nothing was started, so nothing needs
/// shutting down; these subcommands never change the terminal's settings, so there is nothing to restore; and
/// no thread or dispatch source is needed to catch the signal. (The subcommands that start modules use
/// ``ShellEvents`` instead, to shut down in order.)
enum SignalExit {
    /// The line printed when a signal ends the program while it reads the manifest, as ``Console/error(_:)``
    /// prints it without colour (computed, so a handler reads no global that may need initialising).
    static var interruptedWhileReading: StaticString { "error: interrupted while reading the manifest\n" }
    /// The same line in colour.
    static var interruptedWhileReadingInColor: StaticString { "\u{1B}[31merror:\u{1B}[0m interrupted while reading the manifest\n" }

    /// From now on a signal ends the program at once, quietly.
    static func install() {
        install(quietExit)
    }

    /// The handler ``install()`` sets: `_exit` with the signal's status.
    static let quietExit: @convention(c) (Int32) -> Void = { number in
        _exit(StartupRunner.exitCode(for: number).rawValue)
    }

    /// From now on a signal ends the program at once, first saying that it interrupted the reading of the
    /// manifest (in colour when `colored`, as the console would).
    static func installWhileReadingManifest(colored: Bool) {
        if colored {
            install { number in
                SignalExit.write(SignalExit.interruptedWhileReadingInColor)
                _exit(StartupRunner.exitCode(for: number).rawValue)
            }
        } else {
            install { number in
                SignalExit.write(SignalExit.interruptedWhileReading)
                _exit(StartupRunner.exitCode(for: number).rawValue)
            }
        }
    }

    /// Installs `handler` for SIGINT and SIGTERM and unblocks them: a parent that blocked them (one that catches
    /// signals with dispatch sources, say) passes its mask on, and a blocked signal would never reach the handler.
    private static func install(_ handler: @convention(c) (Int32) -> Void) {
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in [SIGINT, SIGTERM] {
            signal(number, handler)
            sigaddset(&signals, number)
        }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Writes `text` to standard error with one `write`; a line this short is not split on a pipe.
    private static func write(_ text: StaticString) {
        _ = SystemCalls.write(STDERR_FILENO, text.utf8Start, text.utf8CodeUnitCount)
    }
}
