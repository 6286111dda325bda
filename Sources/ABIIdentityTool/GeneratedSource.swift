/// The Swift file the tool generates into a build: for ModuleHost, the identity for the host and the mark that a
/// plugin's own code carries into its binary; for any other module a plugin may compile against, that module's mark.
enum GeneratedSource {
    static func text(_ mark: ABIMarkText) -> String {
        """
        // Generated into the build by the ABIIdentityGenerator plugin (Sources/ABIIdentityTool) from the sources,
        // compiler and target this ModuleHost is compiled from. It is never committed, so it cannot be stale.

        /// The identity of this ModuleHost build: a plugin carries the mark of the ModuleHost interface it was
        /// compiled against (``ModuleProtocol/_moduleHostABIMark``), copied into its `modulehost_abi` section by
        /// Scripts/stamp-plugin.sh, and the host refuses any mark but ``mark``.
        package enum ABIIdentity {
            /// The SHA-256 over ModuleHost's Swift sources (Sources/ABIIdentityTool/SourceDigest.swift).
            package static let digest = "\(mark.digest)"
            /// The target triple the compiler reported.
            package static let triple = "\(mark.triple)"
            /// The compiler's version, as `swiftc -print-target-info` reports it.
            package static let compiler = "\(mark.compiler)"
            /// The mark: `MHABI2 <digest> <triple> <compiler>`.
            package static let mark = "\(mark.text)"
        }

        extension ModuleProtocol {
            /// The ABI mark of the ModuleHost interface a module type is compiled against. Emitted into the binary
            /// of the module's own code (never called through ModuleHost's), so a plugin library carries the mark
            /// of the interface it was really compiled against: a library not recompiled keeps its old mark.
            @_alwaysEmitIntoClient
            public static var _moduleHostABIMark: StaticString { "\(mark.text)" }
        }

        """
    }

    /// The mark of `module` (not ModuleHost): `MHMOD <module> <digest>`. It is serialized into the module's
    /// .swiftmodule (an always-emit-into-client body), where Scripts/stamp-plugin.sh reads it for a plugin that uses
    /// the module, and exported by the host as the C symbol `modulehost_abi_<module>`, where the host reads its own.
    static func moduleText(module: String, digest: String) -> String {
        let mark = "\(ABIMarkText.modulePrefix)\(module) \(digest)"
        return """
        // Generated into the build by the ABIIdentityGenerator plugin (Sources/ABIIdentityTool) from the sources
        // this module is compiled from. It is never committed, so it cannot be stale.

        /// This module's ABI mark, as a plugin compiled against it records it (Scripts/stamp-plugin.sh).
        @usableFromInline enum _ModuleHostABIIdentity {
            /// `MHMOD <module> <SHA-256 over the module's sources>`.
            @_alwaysEmitIntoClient @usableFromInline static var mark: StaticString { "\(mark)" }
        }

        /// This module's ABI mark, for the host to compare with a plugin's, before the plugin is loaded.
        @_cdecl("modulehost_abi_\(module)")
        package func _moduleHostABIIdentity() -> UnsafePointer<UInt8> { _ModuleHostABIIdentity.mark.utf8Start }

        """
    }
}
