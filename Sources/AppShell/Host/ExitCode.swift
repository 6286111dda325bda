/// The shell's exit statuses, following BSD sysexits where one fits; documented in `--help` and the README.
enum ExitCode: Int32, Sendable {
    /// Everything worked.
    case ok = 0
    /// A command failed (for example a fact for a number that is not an integer) in a one-shot subcommand.
    case failure = 1
    /// The command line is wrong (EX_USAGE).
    case usage = 64
    /// The manifest or the startup plan is invalid, or a module failed to load (EX_DATAERR).
    case badManifest = 65
    /// The manifest file does not exist (EX_NOINPUT).
    case manifestNotFound = 66
    /// A required startup operation failed or timed out (EX_SOFTWARE).
    case startupFailed = 70
    /// A file the shell had to write (the trace) could not be written (EX_CANTCREAT).
    case cannotWrite = 73
    /// Refused (EX_NOPERM): a log-in failed (wrong user name or password), or a link was refused: its route
    /// opens only from inside the app, or its module rejected it.
    case refused = 77
    /// Interrupted by SIGINT (Ctrl-C), after a clean shutdown (128 + 2).
    case interrupted = 130
    /// Terminated by SIGTERM, after a clean shutdown (128 + 15).
    case terminated = 143
}
