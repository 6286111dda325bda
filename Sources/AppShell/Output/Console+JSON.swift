import ModuleHost

extension Console {
    /// Writes one `--json` document as a line: results to standard output, errors and diagnostics to standard
    /// error. A payload that cannot be encoded is reported as an error instead.
    func json<Payload: Encodable>(_ type: String, _ payload: Payload, toError: Bool = false) {
        do {
            writeLine(try JSONDocument(type: type, data: payload).line(), toError: toError)
        } catch {
            let message = JSONDocument(type: "error", data: ["message": "the \(type) cannot be printed as JSON"])
            writeLine((try? message.line()) ?? #"{"type":"error"}"#, toError: true)
        }
    }

    /// An `error` document's data: the message, and the status the shell exits with when it is known.
    struct ErrorPayload: Encodable {
        let message: String
        let exitStatus: Int32?
    }
}

/// A manifest or startup-plan problem in `--json` output: where it is, what it is, and what would fix it.
struct DiagnosticPayload: Encodable {
    let severity: String
    let code: String
    let file: String?
    let line: Int?
    let column: Int?
    let path: String?
    let message: String
    let suggestion: String?

    init(_ diagnostic: ManifestDiagnostic) {
        severity = diagnostic.severity.rawValue
        code = diagnostic.code.rawValue
        file = diagnostic.file
        line = diagnostic.line
        column = diagnostic.column
        path = diagnostic.path
        message = diagnostic.message
        suggestion = diagnostic.suggestion
    }

    init(_ problem: InitiatorError.Problem, file: String) {
        severity = "error"
        code = "startupPlan." + problem.code.rawValue
        self.file = file
        line = nil
        column = nil
        path = nil
        message = problem.message
        suggestion = problem.suggestion
    }
}

/// `app-shell validate --json`: the verdict and every diagnostic.
struct ValidationPayload: Encodable {
    let file: String
    let valid: Bool
    let modules: Int?
    /// The startup operations of the modules that are not plugins; a plugin's are known once it loads.
    let startupOperations: Int?
    /// Plugin modules whose startup operations `startupOperations` does not count (validate loads no plugin).
    let pluginModulesNotCounted: Int?
    let diagnostics: [DiagnosticPayload]
}
