/// A module instance the registry has forgotten, for the unloader to call its hooks and then retire its context.
package struct UnloadedModule {
    /// The module's identifier.
    package let identifier: ModuleIdentifier
    /// The instance that was loaded.
    package let module: any ModuleProtocol
    /// The context the instance was given; `nil` for an injected module.
    let context: ModuleInstanceContext?

    /// Makes the instance's context refuse from now on; call once its unload hooks have returned.
    package func retireContext() {
        context?.retire()
    }
}
