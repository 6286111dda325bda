extension ModuleContext {
    /// The manager behind this context: the context itself, or the manager that loaded the module instance it was
    /// given to, released or not. For the seed's form, whose hook is handed the manager itself.
    package var manager: ModuleManager? {
        (self as? ModuleManager) ?? (self as? ModuleInstanceContext)?.loadingManager as? ModuleManager
    }
}
