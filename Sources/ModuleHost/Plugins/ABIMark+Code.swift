internal import ModuleHostBinaryImage
/// The marks a plugin file carries outside what the host reads first: its section holds one mark, and its code holds
/// the mark of the interface it was compiled against (``ModuleProtocol/_moduleHostABIMark``, a string constant of
/// every module type it declares). Scripts/stamp-plugin.sh copies the second into the first; a section written any
/// other way may disagree with the code, and the host refuses such a file.
extension ABIMark {
    /// How many bytes one read of the scan takes.
    static let scanChunk = 1 << 20

    /// Every mark in `file`, in file order: `MHABI2 ` followed by printable ASCII, parsed by ``identity(in:)``; an
    /// occurrence that does not parse is not a mark and is left out. Reads the file once, in chunks; the work is
    /// linear in the file's size (a run of printable bytes is parsed at most once per `MHABI2 ` in it, and a mark is
    /// at most ``maximumLength`` bytes).
    static func marks(in file: BoundedFile) throws(BinaryFormatError) -> [Identity] {
        let prefixBytes = Array(prefix.utf8)
        var found: [Identity] = []
        var start: UInt64 = 0
        while start < file.size {
            // Each chunk overlaps the next by a mark's longest length, and keeps only marks that start in its own part.
            let own = min(UInt64(scanChunk), file.size - start)
            let count = min(own + UInt64(maximumLength), file.size - start)
            let bytes = try file.bytes(at: start, count: count, what: "contents")
            var index = 0
            while index < Int(own) {
                guard bytes[index] == prefixBytes[0], bytes.count - index >= prefixBytes.count,
                      bytes[index..<index + prefixBytes.count].elementsEqual(prefixBytes) else {
                    index += 1
                    continue
                }
                var end = index
                while end < bytes.count, end - index < maximumLength, (0x20...0x7E).contains(bytes[end]) { end += 1 }
                if let identity = identity(in: Array(bytes[index..<end])) {
                    found.append(identity)
                    index = end
                } else {
                    index += 1   // not a mark; one may start inside it ("MHABI2 MHABI2 …")
                }
            }
            start += own
        }
        return found
    }
}
