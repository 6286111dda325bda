/// Where one module is in its life: registered, being loaded by a thread, loaded, or failed.
enum LoadState {
    case registered
    case loading(by: ThreadIdentity)
    case loaded(any ModuleProtocol)
    case failed(ResolutionError)
}
