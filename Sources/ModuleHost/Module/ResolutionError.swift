/// Why the bridge could not hand out a module or a service; it names what was asked and what is available.
public struct ResolutionError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure; stable, for code and tests to match on.
    public enum Code: String, Sendable, Hashable {
        /// No module with the requested identifier is registered.
        case unknownModule
        /// No registered module provides the requested service.
        case unprovidedService
        /// Modules resolve each other while loading, in a cycle that can never complete.
        case resolutionCycle
        /// The module threw from `moduleDidLoad`, or a module it requires failed.
        case loadFailed
        /// The module declares the service but its instance does not provide it.
        case serviceNotImplemented
        /// The module is registered but its type is not the one asked for.
        case wrongModuleType
        /// The module's configuration is missing or of another type.
        case configurationUnavailable
        /// The manager that owned this bridge no longer exists.
        case managerUnavailable
        /// A module cannot be released by the thread that is still loading it (or a module that requires it).
        case releasedWhileLoading
    }

    /// The kind of failure.
    public let code: Code
    /// A human explanation that names what was asked and what is available.
    public let message: String
    /// The modules involved in a ``Code/resolutionCycle``, as a closed path `a -> b -> a`.
    public let cycle: [ModuleIdentifier]
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
