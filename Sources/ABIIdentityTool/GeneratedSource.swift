/// The Swift file the tool generates into the build of ModuleHost: the identity for the host, and the mark that
/// a plugin's own code carries into its binary.
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
}
