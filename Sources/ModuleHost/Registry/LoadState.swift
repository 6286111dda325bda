/// Where one module is in its life: registered, being loaded by a thread, loaded, or failed.
enum LoadState {
    case registered
    case loading(by: ThreadIdentity)
    /// Loaded: the instance, and the context it was given (retired when the instance is released).
    case loaded(any ModuleProtocol, context: ModuleInstanceContext)
    case failed(ResolutionError)
}
