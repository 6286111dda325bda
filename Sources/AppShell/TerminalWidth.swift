#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How wide the output may be: the terminal's width (`TIOCGWINSZ` on standard output, then standard error),
/// else `COLUMNS`, else 80; never narrower than 20.
enum TerminalWidth {
    static func current(columns: String? = EnvironmentVariable.value("COLUMNS")) -> Int {
        for descriptor in [STDOUT_FILENO, STDERR_FILENO] {
            var size = winsize()
            if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return max(20, Int(size.ws_col)) }
        }
        if let columns = columns.flatMap({ Int($0) }), columns > 0 { return max(20, columns) }
        return 80
    }
}

/// Word wrapping for help and messages.
enum TextWrap {
    /// `text` wrapped at spaces to lines of at most `width` characters, the lines after the first indented by
    /// `indent`; a word longer than a line is put on a line of its own.
    static func lines(_ text: String, width: Int, indent: Int = 0) -> [String] {
        var lines: [String] = []
        var current = ""
        let padding = String(repeating: " ", count: indent)
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let prefix = lines.isEmpty ? "" : padding
            if current.isEmpty {
                current = prefix + word
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = padding + word
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }
}
