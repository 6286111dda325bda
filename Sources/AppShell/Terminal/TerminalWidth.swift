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
    /// `indent`; a word longer than a line (a long module identifier) is broken after a `.`, `-`, `_` or `/` that
    /// fits, else at the width.
    static func lines(_ text: String, width: Int, indent: Int = 0) -> [String] {
        var lines: [String] = []
        var current = ""
        let padding = String(repeating: " ", count: indent)
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var rest = Substring(word)
            while !rest.isEmpty {
                let prefix = lines.isEmpty && current.isEmpty ? "" : padding
                if current.isEmpty || current.count + 1 + rest.count <= width {
                    let lead = current.isEmpty ? prefix : current + " "
                    let room = max(1, width - lead.count)
                    let piece = rest.count <= room ? rest : Self.head(of: rest, fitting: room)
                    current = lead + piece
                    rest = rest.dropFirst(piece.count)
                    if !rest.isEmpty { lines.append(current); current = "" }
                } else {
                    lines.append(current)
                    current = ""
                }
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }

    /// The longest start of `word` of at most `room` characters that ends with a separator (when that keeps a
    /// third of the room or more), else the first `room` characters.
    private static func head(of word: Substring, fitting room: Int) -> Substring {
        let candidate = word.prefix(room)
        if let cut = candidate.lastIndex(where: { ".-_/".contains($0) }), word[...cut].count > room / 3 {
            return word[...cut]
        }
        return candidate
    }
}
