extension ExtensionPoint {
    /// One contribution to the point, as ``ModuleManager/extensions(of:)`` enumerates it.
    public struct Extension: Sendable {
        /// The module that contributed it.
        public let module: ModuleIdentifier
        /// The contribution's key, if it has one.
        public let key: String?
        let source: ContributedValue<Value>.Source
        /// Held weakly, so a kept contribution does not keep the manager alive.
        weak let context: (any ModuleContext)?

        /// Whether ``value()`` instantiates the contributing module (the first time): true when the module
        /// contributed itself, false when it contributed a value.
        package var instantiatesModule: Bool {
            if case .module = source { true } else { false }
        }

        /// The contributed value. When the module contributed itself, this resolves it through the bridge (the
        /// first time, that instantiates it and the modules it requires) and throws the bridge's error when it
        /// cannot be loaded.
        ///
        /// - Returns: The value the module contributed, or the module itself as the point's value type.
        /// - Throws: The bridge's ``ResolutionError`` when the contributing module cannot be loaded.
        public func value() throws(ResolutionError) -> Value {
            switch source {
            case .value(let value):
                return value
            case .module(let make):
                guard let context else {
                    throw ResolutionError(.managerUnavailable, "the ModuleManager that enumerated \(module)'s contribution no longer exists")
                }
                return try make(context)
            }
        }
    }
}
