import ModuleHost

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Line editing at the prompt, with libedit (see ``LibEdit``): arrows, Home/End, word moves (Alt-B/F,
/// Ctrl-Left/Right), Ctrl-R history search, and Tab completion of ``PromptCompletions``.
///
/// Used only for lines shown as typed on a terminal: a password read (echo off) never reaches it, so it is never
/// seen by libedit nor kept in its history. Ctrl-C ends the line being edited as ``Reading/interrupted`` rather
/// than sending SIGINT (the terminal's signal keys are off while a line is edited), so the shell clears the line
/// and asks again; Ctrl-D on an empty line is the end of input. Its reads run on the shell's one input thread.
///
/// A read also ends as ``Reading/interrupted`` when its ``InputWake`` is cancelled: the editor reads the keys itself
/// (``EditorKeys``), waiting on the wake too. A Ctrl-C that still came as a signal (libedit turns
/// the signal keys back on for a moment around each read) therefore ends the line like one typed while editing,
/// instead of leaving the editor waiting under a `^C` with no new prompt.
final class LineEditor: Sendable {
    /// What one read gave.
    enum Reading: Equatable {
        case line(String)
        /// Ctrl-C: the line was dropped.
        case interrupted
        /// Ctrl-D on an empty line, an error, or the shell is ending.
        case end
    }

    /// The editor for standard input; it edits nothing until ``activate(history:completions:)``.
    static let standardInput = LineEditor()

    private struct Setup: Sendable {
        var active = false
        var history: PromptHistory?
        /// The next read's prompt and whether its line goes into the history; reset after each read.
        var prompt = ""
        var keepsHistory = false
    }

    private let setup = Locked(Setup())
    /// Whether the last read was of a command line (kept in the history), not a command's question.
    private let lastReadKeptHistory = Locked(false)

    /// Whether the last read was of a command line at the prompt.
    var lastReadWasCommandLine: Bool { lastReadKeptHistory.withLock { $0 } }
    /// What Tab offers; read by libedit's completion callback, which cannot capture context.
    private static let completions = Locked(PromptCompletions(commands: []))
    /// Set by the Ctrl-C key binding during a read.
    private static let interruption = Locked(false)
    /// The descriptor that becomes readable when the read under way is cancelled (see ``InputWake``); -1 for none.
    private static let cancellation = Locked<Int32>(-1)
    /// Whether the read under way was ended by its cancellation, not by a key.
    private static let wasCancelled = Locked(false)
    /// Whether the read under way has not read a key yet (see ``EditorKeys/next(from:cancellation:atLineStart:)``).
    private static let atLineStart = Locked(false)

    /// Whether lines shown as typed are edited.
    var isActive: Bool { setup.withLock { $0.active } }

    /// Turns editing on when standard input is a terminal and libedit loads; returns whether it is on. The history
    /// is loaded from `history` and each command line is appended to it.
    func activate(history: PromptHistory?, completions: PromptCompletions) -> Bool {
        guard isatty(STDIN_FILENO) == 1, let libedit = LibEdit.shared else { return false }
        Self.completions.withLock { $0 = completions }
        return setup.withLock { setup in
            if setup.active { return true }
            libedit.catchSignals.pointee = 0
            libedit.name.pointee = UnsafeRawPointer(Self.programName.utf8Start).assumingMemoryBound(to: CChar.self)
            libedit.keyReader?.pointee = Self.readKey
            guard libedit.initialize() == 0 else { return false }
            libedit.completer.pointee = Self.complete
            _ = libedit.addCommand("app-shell-interrupt", Self.interrupt, 3)
            Self.bindings.forEach { binding in _ = binding.withCString { libedit.parseAndBind($0) } }
            libedit.preInputHook.pointee = Self.turnOffSignalKeys
            history?.load().forEach { line in _ = line.withCString { libedit.addHistory($0) } }
            setup.history = history
            setup.active = true
            return true
        }
    }

    /// Sets the next read's prompt and whether its line is kept in the history; returns `false` (and sets
    /// nothing) when editing is off, so the caller shows the prompt itself.
    func prepare(prompt: String, keepsHistory: Bool) -> Bool {
        setup.withLock { setup in
            guard setup.active else { return false }
            setup.prompt = prompt
            setup.keepsHistory = keepsHistory
            return true
        }
    }

    /// The next read's prompt followed by `typed` up to its first line end: how a line typed ahead (before the
    /// editor let go of the terminal) is shown, as it is then read without editing. `nil` when editing is off.
    func showTypedAhead(_ typed: [UInt8]) -> String? {
        let prompt = setup.withLock { setup in
            defer { (setup.prompt, setup.keepsHistory) = ("", false) }
            return setup.active ? setup.prompt : nil
        }
        guard let prompt else { return nil }
        let line = typed.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
        return prompt + String(decoding: line, as: UTF8.self) + (line.count < typed.count ? "\n" : "")
    }

    /// Reads one line, edited; it ends as interrupted once `cancellation` (an ``InputWake``'s descriptor) is
    /// readable. Called by the input thread only.
    func read(cancellation: Int32? = nil) -> Reading {
        let (prompt, history, keepsHistory) = setup.withLock { setup in
            defer { (setup.prompt, setup.keepsHistory) = ("", false) }
            return (setup.prompt, setup.history, setup.keepsHistory)
        }
        lastReadKeptHistory.withLock { $0 = keepsHistory }
        guard let libedit = LibEdit.shared, TerminalEcho.standardInput.beginEditing() else { return .end }
        defer { TerminalEcho.standardInput.endEditing() }
        Self.interruption.withLock { $0 = false }
        Self.wasCancelled.withLock { $0 = false }
        Self.atLineStart.withLock { $0 = true }
        Self.cancellation.withLock { $0 = cancellation ?? -1 }
        defer { Self.cancellation.withLock { $0 = -1 } }
        libedit.done.pointee = 0
        let line = prompt.withCString { libedit.readline($0) }
        defer { free(line) }
        if Self.interruption.withLock({ $0 }) {
            // Cancelled: the terminal showed the Ctrl-C that did it, if one was typed.
            DescriptorOutput.write(Self.wasCancelled.withLock { $0 } ? "\n" : "^C\n", to: STDOUT_FILENO)
            return .interrupted
        }
        guard let line else { return .end }
        let text = String(cString: line)
        if keepsHistory, history?.keeps(text) ?? !text.isEmpty {
            _ = libedit.addHistory(line)
            history?.append(text)
        }
        return .line(text)
    }

    private static let programName: StaticString = "app-shell"

    /// Each `readline` resets the modes it sets on the terminal; this hook, called after that, turns the
    /// terminal's signal keys off while a line is edited, so Ctrl-C reaches the `app-shell-interrupt` binding.
    private static let turnOffSignalKeys: LibEdit.Hook = { _, _ in
        "setty -d -isig".withCString { LibEdit.shared?.parseAndBind($0) } ?? 0
    }

    /// Keys libedit's emacs map does not bind by default.
    private static let bindings = [
        #"bind \\e[1;5D ed-prev-word"#, #"bind \\e[1;5C em-next-word"#,
        #"bind \\e[1;3D ed-prev-word"#, #"bind \\e[1;3C em-next-word"#,
        #"bind \\e[H ed-move-to-beg"#, #"bind \\e[F ed-move-to-end"#,
        #"bind \\eOH ed-move-to-beg"#, #"bind \\eOF ed-move-to-end"#,
        #"bind \\e[1~ ed-move-to-beg"#, #"bind \\e[4~ ed-move-to-end"#,
        #"bind \\e[3~ ed-delete-next-char"#,
        "bind ^R em-inc-search-prev",
    ]

    /// Ctrl-C while editing: ends the read, marked as interrupted.
    private static let interrupt: LibEdit.Command = { _, _ in
        LineEditor.interruption.withLock { $0 = true }
        LibEdit.shared?.done.pointee = 1
        return 0
    }

    /// libedit's key reader (`rl_getc_function`): the next key, or Ctrl-C once the read is cancelled. The
    /// cancellation is given once per read: should a keymap of the user's (`~/.editrc`) not end the line on Ctrl-C,
    /// the read waits for keys again instead of being handed Ctrl-C in a loop.
    private static let readKey: LibEdit.KeyReader = { _ in
        let watched = wasCancelled.withLock { $0 } ? -1 : cancellation.withLock { $0 }
        let first = atLineStart.withLock { first in
            defer { first = false }
            return first
        }
        let key = EditorKeys.next(from: STDIN_FILENO, cancellation: watched, atLineStart: first)
        if key == .cancelled { wasCancelled.withLock { $0 = true } }
        return key.code
    }

    /// Tab: the candidates for the word being typed, in the readline convention: the text to insert first (the
    /// longest common prefix), then each candidate (at least one entry, even when the candidate is the prefix:
    /// libedit looks at the third entry), then `NULL`; `NULL` for none. libedit frees it all.
    private static let complete: LibEdit.Completer = { text, start, _ in
        guard let libedit = LibEdit.shared else { return nil }
        libedit.completionOver.pointee = 1
        let line = libedit.lineBuffer.pointee.map { String(cString: $0) } ?? ""
        let before = String(String.UnicodeScalarView(line.unicodeScalars.prefix(Int(max(start, 0)))))
        let word = text.map { String(cString: $0) } ?? ""
        let matches = LineEditor.completions.withLock { $0 }.candidates(for: word, after: before)
        return matches.isEmpty ? nil : cStrings([commonPrefix(matches)] + matches)
    }

    static func commonPrefix(_ words: [String]) -> String {
        guard var prefix = words.first else { return "" }
        for word in words.dropFirst() {
            while !word.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }

    /// A `malloc`ed, `NULL`-terminated array of `malloc`ed C strings, or `nil` when `strings` is empty.
    private static func cStrings(_ strings: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        guard !strings.isEmpty,
              let array = malloc((strings.count + 1) * MemoryLayout<UnsafeMutablePointer<CChar>?>.stride)?
                .bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: strings.count + 1) else { return nil }
        for (index, string) in strings.enumerated() { array[index] = strdup(string) }
        array[strings.count] = nil
        return array
    }
}
