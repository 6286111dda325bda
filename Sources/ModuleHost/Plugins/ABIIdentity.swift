// Generated: the tooling's script computes this digest of ModuleHost's sources and rewrites this file.
// Placeholder until that script lands; do not edit by hand.

/// The identity of the ModuleHost interface this host was built from; a plugin carries the identity it was
/// built against (its `modulehost_abi` section), and only a plugin whose identity equals this one is loaded.
package enum ABIIdentity {
    /// 64 lowercase hexadecimal digits.
    package static let current: String = String(repeating: "0", count: 64)
}
