/// Why a plugin library named in a manifest was refused or failed to load; checked before `dlopen`
/// wherever possible, so a refused library never runs any code.
struct PluginError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of refusal.
    enum Code: String, Sendable, Hashable, Codable {
        /// No file at the library path.
        case notFound
        /// The path (through `..` or a symbolic link) leads outside the manifest's folder.
        case escapesManifestDirectory
        /// The path names a directory, FIFO, socket or device, not a regular file.
        case notARegularFile
        /// Group or others may write the file, or another user owns it.
        case unsafePermissions
        /// Group or others may write a folder between the file and the manifest's folder, or another user owns it.
        case unsafeFolder
        /// The manifest's `sha256` is not 64 hexadecimal digits.
        case invalidChecksum
        /// The file's SHA-256 differs from the manifest's `sha256`.
        case checksumMismatch
        /// The file is a shared library for another architecture or word size.
        case wrongArchitecture
        /// The file is not a shared library at all.
        case notALibrary
        /// The file starts like a library, but its structure is inconsistent (truncated, or offsets out of range).
        case malformedLibrary
        /// The library carries its own copy of ModuleHost instead of using the host's.
        case bundlesModuleHost
        /// The library carries no ModuleHost ABI mark.
        case missingABIMark
        /// The library's ABI mark is not `MHABI2 `, 64 lowercase hexadecimal digits, a target triple and a compiler version.
        case invalidABIMark
        /// The library was built against another ModuleHost interface than this host's, by another compiler, or for another target.
        case abiMismatch
        /// The library defines no type with the entry's name.
        case typeNotDefined
        /// The library defines the entry's type, but declares no conformance of it to `ModuleProtocol`.
        case notAModule
        /// The entry's type is defined in more than one library (or also outside its library).
        case duplicateType
        /// The host exports no ModuleHost symbols (linked without exporting them): the host's problem.
        case hostExportsNoSymbols
        /// The library needs a ModuleHost symbol this host does not export (built against another host?).
        case missingSymbol
        /// A library the plugin needs would be loaded from outside the host's library folders (see `PluginDependencies`).
        case unsafeDependency
        /// The dynamic loader refused the library for another reason.
        case loadFailed
        /// This platform cannot load plugins.
        case unsupportedPlatform
    }

    /// The kind of refusal.
    let code: Code
    /// The library path as written in the manifest.
    let library: String
    /// What is wrong and what was expected.
    let message: String

    /// Creates an error.
    init(_ code: Code, library: String, message: String) {
        self.code = code
        self.library = library
        self.message = message
    }

    /// The message.
    var description: String { message }
}
