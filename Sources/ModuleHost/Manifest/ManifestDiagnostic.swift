/// One problem found in a manifest, located like a compiler diagnostic: file, line and column, JSON path.
///
/// Printed as `modules.json:7:15: error: modules[1].type: no module type named "AuthModul.AuthModule"; did you mean "AuthModule.AuthModule"?`
public struct ManifestDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// Whether the problem stops the manifest from being used.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// The manifest is rejected.
        case error
        /// The manifest is used, but something in it is probably not what its author meant.
        case warning
    }

    /// What kind of problem this is; stable, for tools and tests to match on.
    ///
    /// A growable ``ErrorCode``: a `switch` over one needs a `default:`.
    public typealias Code = ErrorCode<ManifestDiagnostic>

    /// Whether this is an error or a warning.
    public let severity: Severity
    /// The kind of problem.
    public let code: Code
    /// The manifest's path as given by the caller, or `nil` for in-memory data.
    public let file: String?
    /// The JSON location of the problem, such as `modules[2].type`; empty for the whole document.
    public let path: String
    /// The line and column, where known (``line`` and ``column``).
    package let location: Location?
    /// What is wrong and what was expected.
    public let message: String
    /// A likely fix, such as the closest known type name.
    public let suggestion: String?

    /// Creates a diagnostic.
    package init(
        _ severity: Severity, _ code: Code, file: String?, path: String, location: Location?,
        message: String, suggestion: String? = nil
    ) {
        self.severity = severity
        self.code = code
        self.file = file
        // Bounded, so that a report stays bounded whatever the manifest holds (see `DiagnosticSink`'s cap on count).
        self.path = DisplayText.clipped(path, to: Self.fieldLimit)
        self.location = location
        self.message = DisplayText.clipped(message, to: Self.fieldLimit)
        self.suggestion = suggestion.map { DisplayText.clipped($0, to: Self.fieldLimit) }
    }

    /// The longest a path, message or suggestion is kept, in bytes of UTF-8; longer ones end in "…".
    static let fieldLimit = 2048

    /// The diagnostic as one line: `file:line:column: severity: path: message; suggestion`.
    public var description: String {
        formatted { $0 }
    }

    /// The diagnostic as ``description`` writes it, with the severity marker (`error:`) passed through `style`
    /// (a terminal colours it there).
    ///
    /// Control and format characters from the manifest (a key holding a terminal escape) are written as `\u{…}`.
    package func formatted(severity style: (String) -> String) -> String {
        var head = DisplayText.printable(file ?? "<manifest>")
        if let location { head += ":\(location.line):\(location.column)" }
        var body = path.isEmpty ? "" : "\(path): "
        body += message
        if let suggestion { body += "; \(suggestion)" }
        return "\(head): \(style("\(severity.rawValue):")) \(DisplayText.printable(body))"
    }
}

extension ErrorCode where Domain == ManifestDiagnostic {
    /// The manifest file does not exist.
    public static var fileNotFound: Self { Self(rawValue: "fileNotFound") }

    /// The manifest path names a directory.
    public static var isDirectory: Self { Self(rawValue: "isDirectory") }

    /// The manifest path names a FIFO, a device or a socket: it is refused without reading from it.
    public static var notARegularFile: Self { Self(rawValue: "notARegularFile") }

    /// The manifest file exists but cannot be read.
    public static var unreadable: Self { Self(rawValue: "unreadable") }

    /// The manifest file is empty or only whitespace.
    public static var emptyFile: Self { Self(rawValue: "emptyFile") }

    /// The manifest file is larger than the manifest reader accepts.
    public static var fileTooLarge: Self { Self(rawValue: "fileTooLarge") }

    /// The file is not valid JSON (or not UTF-8).
    public static var malformedJSON: Self { Self(rawValue: "malformedJSON") }

    /// A field has the wrong JSON type.
    public static var wrongType: Self { Self(rawValue: "wrongType") }

    /// A required field is absent.
    public static var missingField: Self { Self(rawValue: "missingField") }

    /// A field is not part of the manifest format.
    public static var unknownField: Self { Self(rawValue: "unknownField") }

    /// A field's value is of the right type but not allowed.
    public static var invalidValue: Self { Self(rawValue: "invalidValue") }

    /// The manifest's `version` is not one this library reads.
    public static var unsupportedVersion: Self { Self(rawValue: "unsupportedVersion") }

    /// No type with the given name is linked into the program.
    public static var unknownType: Self { Self(rawValue: "unknownType") }

    /// The named type exists but does not conform to `ModuleProtocol`.
    public static var notAModule: Self { Self(rawValue: "notAModule") }

    /// Two modules declare the same `moduleIdentifier`.
    public static var duplicateIdentifier: Self { Self(rawValue: "duplicateIdentifier") }

    /// Two modules declare that they provide the same service protocol, or one module declares it twice.
    public static var duplicateService: Self { Self(rawValue: "duplicateService") }

    /// A module lists a service in `providedServices` that it cannot provide: the declaration names another module
    /// type (`.service(P.self, from: Other.self) { … }`), which it is not.
    public static var serviceNotProvided: Self { Self(rawValue: "serviceNotProvided") }

    /// A module contributes to an extension point that the host does not declare.
    public static var unknownExtensionPoint: Self { Self(rawValue: "unknownExtensionPoint") }

    /// A module contributes a value whose type is not the one its extension point's contributions have.
    public static var contributionTypeMismatch: Self { Self(rawValue: "contributionTypeMismatch") }

    /// Two contributions to an extension point that requires unique keys share a key, or a module contributes
    /// a module other than itself.
    public static var invalidContribution: Self { Self(rawValue: "invalidContribution") }

    /// Two modules declare a command of the same name, or a module declares one of the host's own commands.
    public static var duplicateCommand: Self { Self(rawValue: "duplicateCommand") }

    /// A module declares a command whose name is not one word of ASCII letters, digits, `-`, `_` and `.`.
    public static var invalidCommand: Self { Self(rawValue: "invalidCommand") }

    /// A module requires a module that no entry provides.
    public static var missingRequirement: Self { Self(rawValue: "missingRequirement") }

    /// A module requires a module whose entry is disabled.
    public static var disabledRequirement: Self { Self(rawValue: "disabledRequirement") }

    /// Modules require each other in a cycle.
    public static var dependencyCycle: Self { Self(rawValue: "dependencyCycle") }

    /// A module's `config` object does not decode into its configuration type.
    public static var invalidConfig: Self { Self(rawValue: "invalidConfig") }

    /// A `config` object is given to a module that takes none.
    public static var unusedConfig: Self { Self(rawValue: "unusedConfig") }

    /// Startup overrides name an operation the module does not declare.
    public static var unknownOperation: Self { Self(rawValue: "unknownOperation") }

    /// A route a module declares is not valid: its identifier, pattern or parameters.
    public static var invalidRoute: Self { Self(rawValue: "invalidRoute") }

    /// Two routes match the same links (or a module declares a route identifier twice).
    public static var duplicateRoute: Self { Self(rawValue: "duplicateRoute") }

    /// Route overrides name a route the module does not declare.
    public static var unknownRoute: Self { Self(rawValue: "unknownRoute") }

    /// The `routing` settings are not valid, such as an external scheme that is the in-app one.
    public static var invalidRouting: Self { Self(rawValue: "invalidRouting") }

    /// A plugin library was refused or failed to load (see the message for why).
    public static var pluginRejected: Self { Self(rawValue: "pluginRejected") }

    /// The manifest lists no enabled modules.
    public static var noModules: Self { Self(rawValue: "noModules") }

    /// The report stopped here: the manifest has more problems than are listed.
    public static var tooManyProblems: Self { Self(rawValue: "tooManyProblems") }

    /// Every code this version knows, in the order they are declared.
    package static var allCases: [Self] {
        [
            .fileNotFound, .isDirectory, .notARegularFile, .unreadable, .emptyFile, .fileTooLarge, .malformedJSON,
            .wrongType, .missingField, .unknownField, .invalidValue, .unsupportedVersion, .unknownType, .notAModule,
            .duplicateIdentifier, .duplicateService, .serviceNotProvided, .unknownExtensionPoint,
            .contributionTypeMismatch, .invalidContribution, .duplicateCommand, .invalidCommand,
            .missingRequirement, .disabledRequirement, .dependencyCycle, .invalidConfig, .unusedConfig,
            .unknownOperation, .invalidRoute, .duplicateRoute, .unknownRoute, .invalidRouting, .pluginRejected,
            .noModules, .tooManyProblems
        ]
    }
}
