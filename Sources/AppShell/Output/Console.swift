#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the shell writes: results to standard output, errors and progress to standard error.
/// Colours only on a terminal, and never when `NO_COLOR` is set.
///
/// Under `--json` (``isJSON``) every line it writes, on both streams, is one JSON document: ``json(_:_:toError:)``
/// writes a document, and a plain line given to ``out(_:)``, ``error(_:)``, ``warning(_:)`` or ``diagnostic(_:)``
/// becomes one (types `text`, `error`, `warning` and `notice`), so no path can print plain text by forgetting to
/// check the mode.
struct Console: Sendable {
    /// ANSI styles used by the shell.
    enum Style: String, Sendable {
        case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", cyan = "36"
    }

    let outputIsTerminal: Bool
    let errorIsTerminal: Bool
    let inputIsTerminal: Bool
    let colorAllowed: Bool
    /// Whether `--json` was asked for.
    private(set) var isJSON = false

    static func standard() -> Console {
        let noColor = EnvironmentVariable.isSetAndNotEmpty("NO_COLOR")
        let dumb = EnvironmentVariable.isSet("TERM", to: "dumb")
        return Console(outputIsTerminal: isatty(STDOUT_FILENO) == 1, errorIsTerminal: isatty(STDERR_FILENO) == 1,
                       inputIsTerminal: isatty(STDIN_FILENO) == 1, colorAllowed: !noColor && !dumb)
    }

    /// This console, writing JSON documents when `json` is true.
    func jsonMode(_ json: Bool) -> Console {
        var copy = self
        copy.isJSON = json
        return copy
    }

    var outputColor: Bool { colorAllowed && outputIsTerminal && !isJSON }
    var errorColor: Bool { colorAllowed && errorIsTerminal && !isJSON }

    func styled(_ text: String, _ style: Style, forError: Bool = false) -> String {
        (forError ? errorColor : outputColor) ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// Writes a result line to standard output.
    func out(_ text: String = "") {
        if isJSON { return json("text", ["text": text]) }
        DescriptorOutput.write(text + "\n", to: STDOUT_FILENO)
    }

    /// Writes text to standard output without a newline (prompts).
    func outPartial(_ text: String) {
        DescriptorOutput.write(text, to: STDOUT_FILENO)
    }

    /// Writes an error line to standard error, prefixed `error:`; under `--json` an `error` document, with the status
    /// the shell exits with when it is given.
    func error(_ text: String, exitStatus: ExitCode? = nil) {
        if isJSON { return json("error", ErrorPayload(message: text, exitStatus: exitStatus?.rawValue), toError: true) }
        DescriptorOutput.write(errorLine(text), to: STDERR_FILENO)
    }

    /// The line ``error(_:)`` writes for `text`, with its newline. A message may repeat what a user typed or a
    /// manifest holds, so its control characters are written as `\u{…}`: no terminal escape gets through.
    func errorLine(_ text: String) -> String {
        styled("error:", .red, forError: true) + " " + DisplayText.printableLines(text) + "\n"
    }

    /// Writes a warning or notice line to standard error, its control characters written as `\u{…}`.
    func warning(_ text: String) {
        if isJSON { return json("warning", ["message": text], toError: true) }
        DescriptorOutput.write(styled("warning:", .yellow, forError: true) + " " + DisplayText.printableLines(text) + "\n", to: STDERR_FILENO)
    }

    /// Writes a raw line to standard error (progress, diagnostics that carry their own prefix).
    func diagnostic(_ text: String) {
        if isJSON { return json("notice", ["message": text], toError: true) }
        DescriptorOutput.write(text + "\n", to: STDERR_FILENO)
    }

    /// Writes text to standard error without a newline (progress that redraws itself); nothing under `--json`.
    func diagnosticPartial(_ text: String) {
        if !text.isEmpty, !isJSON { DescriptorOutput.write(text, to: STDERR_FILENO) }
    }

    /// Writes a finished line as it is (a JSON document).
    func writeLine(_ line: String, toError: Bool) {
        DescriptorOutput.write(line + "\n", to: toError ? STDERR_FILENO : STDOUT_FILENO)
    }
}
