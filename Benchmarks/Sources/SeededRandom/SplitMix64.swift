/// A small, fast, seedable generator (SplitMix64), so generated graphs and apps are the same in every run and
/// on every platform. Shared by the benchmarks and the large app's generator.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (by remainder: the same on every Swift version, unlike `random(in:using:)`).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
