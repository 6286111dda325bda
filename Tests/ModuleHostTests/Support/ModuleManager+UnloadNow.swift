@testable import ModuleHost

extension ModuleManager {
    /// Unloads every loaded module at once, from a thread or a synchronous hook, as the stress tests race it against
    /// loads: each module's `moduleWillUnload`, in reverse load order, without awaiting teardowns. Returns the
    /// modules unloaded, in order.
    @discardableResult
    func unloadAllNow() -> [ModuleIdentifier] {
        registry.detachAll().map { unloaded in
            unloaded.module.moduleWillUnload()
            unloaded.retireContext()
            return unloaded.identifier
        }
    }
}
