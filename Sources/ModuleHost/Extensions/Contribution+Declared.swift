extension Contribution {
    /// What `type` contributes: the seed's startup operation first, if it declares one (ModuleHostSeed's
    /// `ModuleInitiatorProtocol`), then its ``ModuleProtocol/contributions``. Read once per registration; asks the
    /// runtime nothing.
    static func declared(by type: any ModuleProtocol.Type) -> [Contribution] {
        guard let seed = type._initiatorOperation else { return type.contributions }
        return [.startupOperation(seed)] + type.contributions
    }
}
