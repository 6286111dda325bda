/// The work of one startup operation (the seed's `Initiator.Operation`, in ModuleHostSeed); a synchronous closure literal works too.
///
/// The type is `nonisolated(nonsending)` (SE-0461): a body runs on the executor of the code that calls
/// it. The initiator calls `.high` bodies from the main actor and the other phases' bodies from tasks
/// off it, so a plain closure runs on the main actor in `.high` and on the global concurrent executor
/// elsewhere; a `@MainActor` closure always runs on the main actor. As anywhere in Swift, a body that
/// awaits a `@concurrent` async function (which includes, without the `NonisolatedNonsendingByDefault`
/// feature, any nonisolated `async` function or method) runs that callee on the global executor and then
/// resumes on its own executor (the main actor in `.high`): only the body's own code is on the main actor.
///
/// Two things still make a `.high` body start off the main actor: a value already typed as a plain
/// `@Sendable () async throws -> Void` (a `@concurrent` function, which keeps hopping when converted), and,
/// in Swift 6.3.1, a closure literal with a capture list (`{ [weak model] in … }`), which the compiler
/// treats as `@concurrent` (compare swiftlang/swift#87097). Write such a closure `@MainActor` if it must
/// run on the main actor.
public typealias StartupOperationBody = nonisolated(nonsending) @Sendable () async throws -> Void
