import ModuleHost
internal import ModuleHostSystemLibraries

/// The system's libedit (BSD-licensed), looked up at run time (a `SystemLibrary`) through its readline-compatible
/// interface: app-shell builds and runs where libedit or its headers are missing, and then reads lines without
/// editing.
///
/// Only the functions and variables the prompt needs are looked up; if one is missing, none is used.
struct LibEdit: @unchecked Sendable {
    typealias Readline = @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>?
    typealias AddHistory = @convention(c) (UnsafePointer<CChar>?) -> Int32
    typealias Command = @convention(c) (Int32, Int32) -> Int32
    typealias AddCommand = @convention(c) (UnsafePointer<CChar>?, Command?, Int32) -> Int32
    typealias ParseAndBind = @convention(c) (UnsafePointer<CChar>?) -> Int32
    typealias Initialize = @convention(c) () -> Int32
    /// `int (*)(const char *, int)`, called with `NULL, 0`.
    typealias Hook = @convention(c) (UnsafePointer<CChar>?, Int32) -> Int32
    /// `char **(*)(const char *text, int start, int end)`: the matches for the word from `start` to `end`.
    typealias Completer = @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    /// `int (*)(FILE *)`: the next key as a character code, or -1 at the end of input.
    typealias KeyReader = @convention(c) (UnsafeMutableRawPointer?) -> Int32

    let readline: Readline
    let addHistory: AddHistory
    let addCommand: AddCommand
    let parseAndBind: ParseAndBind
    let initialize: Initialize
    /// `rl_catch_signals`: 0 leaves every signal to the shell.
    let catchSignals: UnsafeMutablePointer<Int32>
    /// `rl_done`: set to end the line being read.
    let done: UnsafeMutablePointer<Int32>
    /// `rl_attempted_completion_function`.
    let completer: UnsafeMutablePointer<Completer?>
    /// `rl_attempted_completion_over`: 1 stops libedit from completing file names instead.
    let completionOver: UnsafeMutablePointer<Int32>
    /// `rl_line_buffer`: the line as typed so far.
    let lineBuffer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    /// `rl_pre_input_hook`: called by each `readline` after it reset the terminal modes, before it reads.
    let preInputHook: UnsafeMutablePointer<Hook?>
    /// `rl_readline_name`: the name `~/.editrc` can test for.
    let name: UnsafeMutablePointer<UnsafePointer<CChar>?>
    /// `rl_getc_function`: how keys are read, set before `rl_initialize`; `nil` where the library lacks it (then a
    /// read cannot be cancelled, see ``LineEditor``).
    let keyReader: UnsafeMutablePointer<KeyReader?>?

    /// The library, or `nil` when it is not installed (or lacks a symbol the prompt needs).
    static let shared: LibEdit? = load(names: ["libedit.so.2", "libedit.so", "libedit.3.dylib", "libedit.dylib"])

    static func load(names: [String]) -> LibEdit? {
        guard let library = SystemLibrary(firstOf: names),
              let readline = library.function("readline", as: Readline.self),
              let addHistory = library.function("add_history", as: AddHistory.self),
              let addCommand = library.function("rl_add_defun", as: AddCommand.self),
              let parseAndBind = library.function("rl_parse_and_bind", as: ParseAndBind.self),
              let initialize = library.function("rl_initialize", as: Initialize.self),
              let catchSignals = library.variable("rl_catch_signals", of: Int32.self),
              let done = library.variable("rl_done", of: Int32.self),
              let completer = library.variable("rl_attempted_completion_function", of: Completer?.self),
              let completionOver = library.variable("rl_attempted_completion_over", of: Int32.self),
              let lineBuffer = library.variable("rl_line_buffer", of: UnsafeMutablePointer<CChar>?.self),
              let name = library.variable("rl_readline_name", of: UnsafePointer<CChar>?.self),
              let preInputHook = library.variable("rl_pre_input_hook", of: Hook?.self)
        else { return nil }
        return LibEdit(readline: readline, addHistory: addHistory, addCommand: addCommand, parseAndBind: parseAndBind,
                       initialize: initialize, catchSignals: catchSignals, done: done, completer: completer,
                       completionOver: completionOver, lineBuffer: lineBuffer, preInputHook: preInputHook,
                       name: name, keyReader: library.variable("rl_getc_function", of: KeyReader?.self))
    }
}
