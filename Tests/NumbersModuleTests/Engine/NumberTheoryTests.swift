import Testing
@testable import NumbersModule
import TestSupport

@Suite("Sequences, roots, digits")
struct NumberTheoryTests {
    @Test func fibonacciMembership() {
        #expect(NumberTheory.fibonacciIndex(12_586_269_025) == 50)
        #expect(NumberTheory.fibonacciIndex(12_586_269_024) == nil)
        #expect(NumberTheory.fibonacciIndex(0) == 0)
        #expect(NumberTheory.fibonacciIndex(1) == 2)
        #expect(NumberTheory.fibonacciIndex(144) == 12)
        #expect(NumberTheory.fibonacciIndex(7_540_113_804_746_346_429) == 92)  // largest in Int64
        #expect(NumberTheory.fibonacciIndex(.max) == nil)
        #expect(NumberTheory.fibonacciIndex(-8) == nil)
        #expect(NumberTheory.fibonacciNumbers.count == 93)
        // Membership agrees with a direct walk for small n.
        var fibs: Set<Int64> = [0, 1]
        var (a, b): (Int64, Int64) = (0, 1)
        while b < 100_000 { (a, b) = (b, a + b); fibs.insert(b) }
        for n in Int64(0)..<100_000 {
            #expect((NumberTheory.fibonacciIndex(n) != nil) == fibs.contains(n), "n = \(n)")
        }
    }

    @Test func triangularNumbers() {
        #expect(NumberTheory.triangularIndex(5050) == 100)
        #expect(NumberTheory.triangularIndex(5051) == nil)
        #expect(NumberTheory.triangularIndex(0) == 0)
        #expect(NumberTheory.triangularIndex(1) == 1)
        #expect(NumberTheory.triangularIndex(-1) == nil)
        // The largest triangular number in Int64: k = 4294967295 gives 9223372034707292160.
        #expect(NumberTheory.triangularIndex(9_223_372_034_707_292_160) == 4_294_967_295)
        #expect(NumberTheory.triangularIndex(.max) == nil)
        for k in Int64(0)..<2000 {
            #expect(NumberTheory.triangularIndex(k * (k + 1) / 2) == k)
            if k > 1 { #expect(NumberTheory.triangularIndex(k * (k + 1) / 2 + 1) == nil) }
        }
    }

    @Test func squaresAndCubesNearTheTop() {
        #expect(NumberTheory.exactSquareRoot(9_223_372_030_926_249_001) == 3_037_000_499)
        #expect(NumberTheory.exactSquareRoot(9_223_372_030_926_249_000) == nil)
        #expect(NumberTheory.exactSquareRoot(9_223_372_030_926_249_002) == nil)
        #expect(NumberTheory.exactSquareRoot(.max) == nil)
        #expect(NumberTheory.exactSquareRoot(0) == 0)
        #expect(NumberTheory.exactSquareRoot(1) == 1)
        #expect(NumberTheory.exactSquareRoot(-4) == nil)
        #expect(NumberTheory.exactSquareRoot(.min) == nil)
        #expect(NumberTheory.integerSquareRoot(.max) == 4_294_967_295)
        #expect(NumberTheory.integerSquareRoot(1 << 62) == 1 << 31)

        #expect(NumberTheory.exactCubeRoot(9_223_358_842_721_533_951) == 2_097_151)
        #expect(NumberTheory.exactCubeRoot(9_223_358_842_721_533_950) == nil)
        #expect(NumberTheory.exactCubeRoot(9_223_358_842_721_533_952) == nil)
        #expect(NumberTheory.exactCubeRoot(.max) == nil)
        #expect(NumberTheory.exactCubeRoot(.min) == -2_097_152)  // -2^63 = (-2^21)^3
        #expect(NumberTheory.exactCubeRoot(-27) == -3)
        #expect(NumberTheory.exactCubeRoot(0) == 0)
        #expect(NumberTheory.integerCubeRoot(.max) == 2_642_245)
        for r in Int64(-1000)...1000 {
            #expect(NumberTheory.exactCubeRoot(r * r * r) == r)
            if r >= 0 { #expect(NumberTheory.exactSquareRoot(r * r) == r) }
        }
    }

    @Test func powersOfTwoAndMersenneForms() {
        #expect(NumberTheory.powerOfTwoExponent(1) == 0)
        #expect(NumberTheory.powerOfTwoExponent(1024) == 10)
        #expect(NumberTheory.powerOfTwoExponent(1 << 62) == 62)
        #expect(NumberTheory.powerOfTwoExponent(.min) == nil)
        #expect(NumberTheory.powerOfTwoExponent(0) == nil)
        #expect(NumberTheory.powerOfTwoExponent(12) == nil)
        #expect(NumberTheory.mersenneExponent(.max) == 63)
        #expect(NumberTheory.mersenneExponent(127) == 7)
        #expect(NumberTheory.mersenneExponent(1) == nil)
        #expect(NumberTheory.mersenneExponent(128) == nil)
    }

    @Test func palindromes() {
        for n: Int64 in [0, 7, 11, 121, 12321, 9_009, 1_000_000_000_000_000_001] {
            #expect(NumberTheory.isDecimalPalindrome(n), "\(n)")
        }
        for n: Int64 in [10, 123, 10_010, -121, .max, .min] {
            #expect(!NumberTheory.isDecimalPalindrome(n), "\(n)")
        }
    }

    @Test func collatz() {
        #expect(NumberTheory.collatz(27) == .reachesOne(steps: 111, peak: 9232))
        #expect(NumberTheory.collatz(1) == .reachesOne(steps: 0, peak: 1))
        #expect(NumberTheory.collatz(2) == .reachesOne(steps: 1, peak: 2))
        #expect(NumberTheory.collatz(97) == .reachesOne(steps: 118, peak: 9232))
        #expect(NumberTheory.collatz(0) == .undefined)
        #expect(NumberTheory.collatz(-5) == .undefined)
        #expect(NumberTheory.collatz(.min) == .undefined)
        // Int64.max is odd, so the very first step would overflow.
        #expect(NumberTheory.collatz(.max) == .overflows(steps: 0, value: .max))
        // Powers of two only halve.
        #expect(NumberTheory.collatz(1 << 62) == .reachesOne(steps: 62, peak: 1 << 62))
        #expect(NumberTheory.collatz(27, stepLimit: 10) == .stepLimitReached(steps: 10))
    }

    @Test func collatzNeverTrapsOnLargeValues() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<200 {
            let n = Int64.random(in: 1...Int64.max, using: &rng)
            switch NumberTheory.collatz(n) {
            case .reachesOne(let steps, let peak):
                #expect(steps > 0 && peak >= n)
            case .overflows(_, let value):
                #expect(value > (Int64.max - 1) / 3)
            case .stepLimitReached, .undefined:
                Issue.record("unexpected outcome for \(n)")
            }
        }
    }

    @Test func romanNumerals() {
        #expect(NumberTheory.romanNumeral(1994) == "MCMXCIV")
        #expect(NumberTheory.romanNumeral(3999) == "MMMCMXCIX")
        #expect(NumberTheory.romanNumeral(1) == "I")
        #expect(NumberTheory.romanNumeral(4) == "IV")
        #expect(NumberTheory.romanNumeral(2024) == "MMXXIV")
        #expect(NumberTheory.romanNumeral(0) == nil)
        #expect(NumberTheory.romanNumeral(4000) == nil)
        #expect(NumberTheory.romanNumeral(-1) == nil)
        #expect(NumberTheory.romanNumeral(.min) == nil)
    }

    @Test func digitsAndBinary() {
        #expect(NumberTheory.digitSum(1994) == 23)
        #expect(NumberTheory.digitSum(-1994) == 23)
        #expect(NumberTheory.digitSum(0) == 0)
        #expect(NumberTheory.digitSum(.max) == 88)
        #expect(NumberTheory.digitSum(.min) == 89)
        #expect(NumberTheory.decimalDigits(.min).count == 19)
        #expect(NumberTheory.isHarshad(1729))
        #expect(!NumberTheory.isHarshad(11))
        #expect(!NumberTheory.isHarshad(0))
        #expect(NumberTheory.binaryString(42) == "101010")
        #expect(NumberTheory.binaryString(0) == "0")
        #expect(NumberTheory.binaryString(-1) == String(repeating: "1", count: 64))
        #expect(NumberTheory.binaryString(.min) == "1" + String(repeating: "0", count: 63))
    }
}
