/// What the host reads from a plugin file without running it, whatever its format (ELF or Mach-O): whether it is
/// a shared library for this machine, its ABI mark's bytes and its dynamic symbols.
public struct PluginBinary {
    public let isSharedObject: Bool
    /// Why the file is for another machine, or `nil` when it matches this host.
    public let foreignArchitecture: String?
    /// The bytes of its ABI mark section, or `nil` when it has none.
    public let mark: [UInt8]?
    public let symbols: ELFImage.DynamicSymbols
    /// The libraries it needs and where the loader looks for them (ELF; empty for Mach-O, whose loader commands are
    /// not read).
    public let dependencies: ELFImage.Dependencies

    /// The ELF section a plugin's ABI mark is in; on Mach-O it is `__DATA,__modulehost_abi`.
    public static let elfMarkSection = "modulehost_abi"

    /// Reads `file` by its magic number; throws a ``BinaryFormatError`` for anything else or anything malformed.
    public static func read(_ file: BoundedFile) throws(BinaryFormatError) -> PluginBinary {
        guard file.size >= 4 else { throw BinaryFormatError("it is too short to be a library", notAnObject: true) }
        let magic = LittleEndianBytes(bytes: try file.bytes(at: 0, count: 4, what: "magic number"))
        switch try magic.u32(0) {
        case 0x464C_457F:  // "\x7FELF"
            let image = try ELFImage(file)
            guard image.foreignArchitecture == nil, image.isSharedObject else { return PluginBinary(image.isSharedObject, image.foreignArchitecture) }
            return PluginBinary(isSharedObject: true, foreignArchitecture: nil, mark: try image.section(named: Self.elfMarkSection),
                                symbols: try image.dynamicSymbols(), dependencies: try image.dynamicDependencies())
        case UInt64(MachOImage.magic):
            let image = try MachOImage(file)
            guard image.foreignArchitecture == nil, image.isSharedObject else { return PluginBinary(image.isSharedObject, image.foreignArchitecture) }
            return PluginBinary(isSharedObject: true, foreignArchitecture: nil, mark: try image.mark(), symbols: try image.symbols(),
                                dependencies: ELFImage.Dependencies())
        case 0xFEED_FACE, 0xCEFA_EDFE, 0xCFFA_EDFE:
            return PluginBinary(false, "it is a 32-bit or big-endian Mach-O file")
        case 0xBEBA_FECA, 0xBFBA_FECA:
            throw BinaryFormatError("it is a universal (fat) Mach-O file; give the host the library for its own architecture (lipo -thin)")
        default:
            throw BinaryFormatError("it is neither an ELF nor a Mach-O file", notAnObject: true)
        }
    }

    private init(_ isSharedObject: Bool, _ foreignArchitecture: String?) {
        self.init(isSharedObject: isSharedObject, foreignArchitecture: foreignArchitecture, mark: nil, symbols: ELFImage.DynamicSymbols(),
                  dependencies: ELFImage.Dependencies())
    }

    private init(isSharedObject: Bool, foreignArchitecture: String?, mark: [UInt8]?, symbols: ELFImage.DynamicSymbols,
                 dependencies: ELFImage.Dependencies) {
        self.isSharedObject = isSharedObject
        self.foreignArchitecture = foreignArchitecture
        self.mark = mark
        self.symbols = symbols
        self.dependencies = dependencies
    }
}
