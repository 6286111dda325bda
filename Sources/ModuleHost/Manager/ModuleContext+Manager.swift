extension ModuleContext {
    /// The manager behind this context: the context itself, or the manager that loaded the module instance it was
    /// given to, released or not. For the seed's form (ModuleHostSeed), whose hook is handed the manager itself; SPI,
    /// so a module in ModuleHost's form, which sees only its context, does not see it.
    @_spi(Seed) public var manager: ModuleManager? {
        (self as? ModuleManager) ?? (self as? ModuleInstanceContext)?.loadingManager as? ModuleManager
    }
}
