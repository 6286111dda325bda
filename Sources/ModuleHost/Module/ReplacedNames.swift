// Names of an earlier API that are now contributions: code written against them fails to compile with a message
// that says what to write instead, rather than compiling and being silently ignored.

/// Replaced: a module contributes its startup operations in ``ModuleProtocol/contributions``.
@available(*, unavailable, message: "contribute startup operations in `contributions`, with `.startupOperation(_:)`")
public typealias StartupOperationsProviding = ModuleProtocol

/// Replaced: a module contributes its commands in ``ModuleProtocol/contributions``.
@available(*, unavailable, message: "contribute commands in `contributions`, with `.command(_:)`")
public typealias ModuleCommandsProviding = ModuleProtocol
