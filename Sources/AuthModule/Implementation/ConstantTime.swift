/// Comparisons whose running time does not depend on where the inputs differ.
enum ConstantTime {
    /// `true` when `a` and `b` hold the same bytes. Takes time proportional to the length; only
    /// the lengths (which are not secret for hashes and tokens) can leak through timing.
    static func equals<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) {
            difference |= x ^ y
        }
        return difference == 0
    }

    /// `true` when the UTF-8 encodings of `a` and `b` are equal.
    static func equals(_ a: String, _ b: String) -> Bool {
        equals(Array(a.utf8), Array(b.utf8))
    }
}
