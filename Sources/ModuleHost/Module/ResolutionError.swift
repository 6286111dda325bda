/// Why the bridge could not hand out a module or a service; it names what was asked and what is available.
public struct ResolutionError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure; stable, for code and tests to match on.
    ///
    /// A growable ``ErrorCode``: a `switch` over one needs a `default:`.
    public typealias Code = ErrorCode<ResolutionError>

    /// The kind of failure.
    public let code: Code
    /// A human explanation that names what was asked and what is available.
    public let message: String
    /// The modules involved in a `.resolutionCycle`, as a closed path `a -> b -> a`.
    package let cycle: [ModuleIdentifier]
    /// The error that caused this one, such as the one `moduleDidLoad` threw.
    public let underlyingError: (any Error)?

    /// Creates an error.
    package init(_ code: Code, _ message: String, cycle: [ModuleIdentifier] = [], underlyingError: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cycle = cycle
        self.underlyingError = underlyingError
    }

    /// The message, followed by the underlying error if there is one.
    public var description: String {
        guard let underlyingError else { return message }
        return "\(message): \(underlyingError)"
    }
}

extension ErrorCode where Domain == ResolutionError {
    /// No module with the requested identifier is registered.
    public static var unknownModule: Self { Self(rawValue: "unknownModule") }

    /// No registered module provides the requested service.
    public static var unprovidedService: Self { Self(rawValue: "unprovidedService") }

    /// Modules resolve each other while loading, in a cycle that can never complete.
    public static var resolutionCycle: Self { Self(rawValue: "resolutionCycle") }

    /// The module threw from `moduleDidLoad`, or a module it requires failed.
    public static var loadFailed: Self { Self(rawValue: "loadFailed") }

    /// The module declares the service but its instance does not provide it: an instance injected in its place
    /// (in a test) that is neither the declared module type nor conforms to the service.
    public static var serviceNotImplemented: Self { Self(rawValue: "serviceNotImplemented") }

    /// The module is registered but its type is not the one asked for.
    public static var wrongModuleType: Self { Self(rawValue: "wrongModuleType") }

    /// The module's configuration is missing or of another type.
    public static var configurationUnavailable: Self { Self(rawValue: "configurationUnavailable") }

    /// The manager that owned this bridge no longer exists.
    public static var managerUnavailable: Self { Self(rawValue: "managerUnavailable") }

    /// A module cannot be released by the thread that is still loading it (or a module that requires it).
    public static var releasedWhileLoading: Self { Self(rawValue: "releasedWhileLoading") }

    /// The context belongs to a module instance that was released: resolve the module again for the loaded one.
    public static var moduleReleased: Self { Self(rawValue: "moduleReleased") }
}
