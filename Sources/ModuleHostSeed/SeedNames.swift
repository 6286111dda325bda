import ModuleHost

extension ModuleManager {
    /// The app's shared manager, the seed's `ModuleManager.default`: register the manifest on it when the app
    /// starts, and reach it from anywhere. A test makes a manager of its own with `ModuleManager()` instead, so tests
    /// share nothing.
    ///
    /// ```swift
    /// try ModuleManager.default.registerModules(withConfigFilePath: url)
    /// ```
    public static let `default` = ModuleManager()
}

extension Initiator {
    /// The work of one startup operation: the seed's name for `StartupOperationBody`.
    public typealias Operation = StartupOperationBody
    /// When an operation runs (`high`, `asyncHigh`, `afterFirstFrame`, `low`, `idle`): the seed's name for
    /// `ModuleStartupOperation.Priority`.
    public typealias Priority = ModuleStartupOperation.Priority
}
