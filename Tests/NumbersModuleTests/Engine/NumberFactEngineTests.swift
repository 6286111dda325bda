import NumbersInterface
import Foundation
import Testing
@testable import NumbersModule
import TestSupport

@Suite("Number facts")
struct NumberFactEngineTests {
    let engine = NumberFactEngine()

    private func content(_ n: Int64, _ kind: NumberFact.Kind) -> String? {
        engine.facts(about: n).first { $0.kind == kind }?.content
    }

    private func kinds(_ n: Int64) -> Set<NumberFact.Kind> {
        Set(engine.facts(about: n).map(\.kind))
    }

    @Test func perfectNumbers() {
        #expect(content(28, .perfect) == "28 is a perfect number: it equals the sum of its proper divisors 1 + 2 + 4 + 7 + 14.")
        #expect(content(8128, .perfect) == "8128 is a perfect number: it equals the sum of its proper divisors 1 + 2 + 4 + 8 + 16 + 32 + 64 + 127 + 254 + 508 + 1016 + 2032 + 4064.")
        #expect(engine.fact(about: 28).kind == .perfect)
        #expect(engine.fact(about: 8128).kind == .perfect)
        #expect(!kinds(28).contains(.abundant) && !kinds(28).contains(.deficient))
    }

    @Test func abundantAndDeficient() {
        #expect(content(12, .abundant) == "12 is abundant: its proper divisors 1 + 2 + 3 + 4 + 6 sum to 16, which is more than 12.")
        #expect(content(945, .abundant)?.contains("odd abundant") == true)
        #expect(content(8, .deficient) == "8 is deficient: its proper divisors 1 + 2 + 4 sum to 7, which is less than 8.")
        #expect(content(13, .deficient) == "13 is deficient: as a prime its only proper divisor is 1, which is less than 13.")
    }

    @Test func primes() {
        #expect(content(2_305_843_009_213_693_951, .prime) == "2305843009213693951 is prime (it is the Mersenne prime 2^61 - 1).")
        #expect(engine.fact(about: 2_305_843_009_213_693_951).content == "2305843009213693951 is prime (it is the Mersenne prime 2^61 - 1).")
        #expect(content(97, .prime) == "97 is prime (it is the 25th prime).")
        #expect(content(5, .prime) == "5 is prime (it is the 3rd prime; it is a twin prime with 3 and 7).")
        #expect(content(9_223_372_036_854_775_783, .prime)?.contains("largest prime that fits in Int64") == true)
        #expect(content(127, .mersenne) == "127 = 2^7 - 1 is a Mersenne prime.")
        #expect(!kinds(561).contains(.prime))
        #expect(content(561, .composite) == "561 is composite: 561 = 3 x 11 x 17, with 8 divisors.")
        #expect(content(6, .composite) == "6 is composite: 6 = 2 x 3, a semiprime with 4 divisors.")
        #expect(content(3_825_123_056_546_413_051, .composite)?.contains("149491 x 747451 x 34233211") == true)
    }

    @Test func sequencesAndShapes() {
        #expect(content(12_586_269_025, .fibonacci) == "12586269025 is a Fibonacci number: F(50) = 12586269025.")
        #expect(!kinds(12_586_269_024).contains(.fibonacci))
        #expect(content(5050, .triangular) == "5050 is triangular: 1 + 2 + ... + 100 = 5050, so it is T(100).")
        #expect(content(6, .triangular) == "6 is triangular: 1 + 2 + 3 = 6, so it is T(3).")
        #expect(content(9_223_372_030_926_249_001, .square) == "9223372030926249001 is a perfect square: 3037000499^2 = 9223372030926249001.")
        #expect(content(9_223_358_842_721_533_951, .cube) == "9223358842721533951 is a perfect cube: 2097151^3 = 9223358842721533951.")
        #expect(content(64, .cube)?.contains("sixth power 2^6") == true)
        #expect(content(1024, .powerOfTwo) == "1024 = 2^10 is a power of two.")
        #expect(content(12321, .palindrome) != nil)
        #expect(!kinds(12_345).contains(.palindrome))
    }

    @Test func collatzRomanDigitsBinary() {
        #expect(content(27, .collatz) == "27 reaches 1 after 111 steps of the Collatz map (halve if even, triple and add 1 if odd), peaking at 9232.")
        #expect(content(1994, .roman) == "1994 in Roman numerals is MCMXCIV.")
        #expect(content(3999, .roman)?.contains("MMMCMXCIX") == true)
        #expect(content(0, .roman)?.contains("no standard Roman numeral") == true)
        #expect(content(4000, .roman) == "4000 has no standard Roman numeral: standard Roman numerals cover only 1 to 3999.")
        #expect(content(1994, .digitSum) == "1994 has 4 digits, which sum to 23; its digital root is 5.")
        #expect(content(1729, .harshad) == "1729 is a Harshad number: it is divisible by its digit sum 19 (1729 = 19 x 91).")
        #expect(content(42, .binary) == "42 in binary is 101010: 6 bits, 3 of them set to 1.")
        #expect(content(Int64.max, .collatz)?.contains("leaves the Int64 range") == true)
    }

    @Test func zeroAndOne() {
        let zero = engine.facts(about: 0)
        #expect(zero.contains { $0.kind == .unit && $0.content.contains("neither prime nor composite") })
        #expect(!zero.contains { [.prime, .composite, .perfect, .abundant, .deficient, .collatz, .harshad].contains($0.kind) })
        #expect(kinds(0).isSuperset(of: [.fibonacci, .triangular, .square, .cube, .palindrome, .roman, .binary, .parity]))

        let one = engine.facts(about: 1)
        #expect(one.contains { $0.kind == .unit && $0.content.contains("neither prime nor composite") })
        #expect(!one.contains { $0.kind == .prime || $0.kind == .composite })
        #expect(content(1, .roman) == "1 in Roman numerals is I.")
        #expect(engine.fact(about: 0).kind == .unit)
        #expect(engine.fact(about: 1).kind == .unit)
    }

    @Test func negativeNumbers() {
        #expect(content(-1, .unit)?.contains("neither prime nor composite") == true)
        #expect(!kinds(-1).contains(.prime))
        #expect(content(-28, .negative) == "-28 is negative; its absolute value is 28, a perfect number.")
        #expect(content(-28, .composite) == "-28 = -1 x 2^2 x 7; its absolute value is composite, with 6 positive divisors.")
        #expect(content(-7, .prime) == "-7 is the negative of the prime 7; primes themselves are positive.")
        #expect(content(-8, .cube) == "-8 is a perfect cube: (-2)^3 = -8.")
        #expect(content(-28, .binary)?.hasSuffix("100100: 60 of its 64 bits set to 1.") == true)
        let noSuchFacts: Set<NumberFact.Kind> = [.square, .fibonacci, .triangular, .palindrome, .collatz, .perfect, .abundant, .deficient, .powerOfTwo]
        #expect(kinds(-28).isDisjoint(with: noSuchFacts))
        #expect(kinds(-4).isDisjoint(with: noSuchFacts))
    }

    @Test func extremes() {
        let maxFacts = engine.facts(about: .max)
        #expect(engine.fact(about: .max).kind == .extreme)
        #expect(content(.max, .composite) == "9223372036854775807 is composite: 9223372036854775807 = 7^2 x 73 x 127 x 337 x 92737 x 649657, with 96 divisors.")
        #expect(content(.max, .mersenne)?.contains("2^63 - 1") == true)
        #expect(!maxFacts.contains { $0.kind == .prime })

        let minFacts = engine.facts(about: .min)
        #expect(engine.fact(about: .min).kind == .extreme)
        #expect(content(.min, .extreme)?.contains("no positive counterpart") == true)
        #expect(content(.min, .composite) == "-9223372036854775808 = -1 x 2^63; its absolute value is composite, with 64 positive divisors.")
        #expect(content(.min, .cube) == "-9223372036854775808 is a perfect cube: (-2097152)^3 = -9223372036854775808.")
        #expect(content(.min, .digitSum)?.contains("sum to 89") == true)
        #expect(content(.min, .parity) == "-9223372036854775808 is even.")
        #expect(!minFacts.contains { $0.kind == .prime || $0.kind == .powerOfTwo })
        #expect(content(1 << 62, .powerOfTwo)?.contains("largest power of two") == true)
    }

    @Test(arguments: [Int64(0), 1, -1, 2, -2, 28, -28, 561, 8128, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1,
                      9_223_372_036_854_775_783, 4_611_686_018_427_387_904, 3_825_123_056_546_413_051])
    func everyFactIsAboutTheNumberAndInFixedOrder(_ n: Int64) {
        let facts = engine.facts(about: n)
        #expect(!facts.isEmpty)
        #expect(facts.allSatisfy { $0.number == n && !$0.content.isEmpty })
        #expect(facts.allSatisfy { $0.content.allSatisfy(\.isASCII) })
        let order = facts.map { NumberFact.Kind.allCases.firstIndex(of: $0.kind)! }
        #expect(order == order.sorted())
        #expect(Set(facts.map(\.kind)).count == facts.count)  // at most one fact per kind
        #expect(facts.contains(engine.fact(about: n)))
    }

    @Test func noInputTraps() {
        var rng = SplitMix64(seed: 7)
        var values: [Int64] = Array(-300...300) + [.max, .min, .max - 1, .min + 1]
        for _ in 0..<150 { values.append(Int64(bitPattern: rng.next())) }
        for n in values {
            #expect(!engine.facts(about: n).isEmpty)
        }
    }

    @Test func deterministicFactIsStable() {
        let other = NumberFactEngine(primeTable: PrimeTable(bound: 500))
        for n: Int64 in [0, 7, 28, 42, 100, 997, 1994, 5050, 65_537, 12_586_269_025, .max, .min, -17] {
            let first = engine.fact(about: n)
            #expect(engine.fact(about: n) == first)
            #expect(other.fact(about: n) == first, "table size must not change the chosen fact for \(n)")
            #expect(engine.facts(about: n) == other.facts(about: n))
        }
        #expect(engine.fact(about: 42).number == 42)
    }

    @Test func seededRandomFactsAreReproducible() {
        var a = SplitMix64(seed: 2024)
        var b = SplitMix64(seed: 2024)
        let other = NumberFactEngine(primeTable: PrimeTable(bound: 4096))
        let first = (0..<60).map { _ in engine.randomFact(using: &a) }
        let second = (0..<60).map { _ in other.randomFact(using: &b) }
        #expect(first == second)
        #expect(Set(first.map(\.number)).count > 30)
        #expect(first.filter { (0...10_000).contains($0.number) }.count >= 30)

        var c = SplitMix64(seed: 99)
        var d = SplitMix64(seed: 99)
        #expect(engine.fact(about: 360, using: &c) == engine.fact(about: 360, using: &d))
        let all = engine.facts(about: 360)
        var e = SplitMix64(seed: 1)
        for _ in 0..<20 { #expect(all.contains(engine.fact(about: 360, using: &e))) }
        _ = engine.randomFact()  // system generator: just must not trap
    }

    @Test func randomChoiceFavoursInterestingFacts() {
        var rng = SplitMix64(seed: 31)
        var counts: [NumberFact.Kind: Int] = [:]
        for _ in 0..<2000 { counts[engine.fact(about: 28, using: &rng).kind, default: 0] += 1 }
        #expect(counts[.perfect, default: 0] > 5 * counts[.parity, default: 0])
        #expect(Set(counts.keys) == Set(engine.facts(about: 28).map(\.kind)))
    }

    @Test func factsRoundTripThroughCodable() throws {
        let fact = engine.fact(about: 28)
        let data = try JSONEncoder().encode(fact)
        let decoded = try JSONDecoder().decode(NumberFact.self, from: data)
        #expect(decoded == fact)
    }
}
