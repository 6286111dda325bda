import ModuleHost

extension ModuleManager {
    /// Opens links to the routes the registered modules contribute (`ModuleRoute.point`). Made on first use, and
    /// the same router after.
    public var router: ModuleRouter {
        part(ModuleRouter.self, make: ModuleRouter.init(registry:))
    }
}

extension ModuleRouter: ManagerPart {}
