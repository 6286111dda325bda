import ModuleHost

// A name of an earlier API that is now a contribution: code written against it fails to compile with a message
// that says what to write instead, rather than compiling and being silently ignored.

/// Replaced: a module contributes its routes in ``ModuleProtocol/contributions`` and adopts ``ModuleRouteHandler``
/// to guard them.
@available(*, unavailable, renamed: "ModuleRouteHandler",
           message: "contribute routes in `contributions`, with `.route(_:)`; adopt ModuleRouteHandler to guard them")
public typealias ModuleRoutesProviding = ModuleRouteHandler
