import NumbersInterface

/// Figurate and special sequences, digits, Collatz, Roman numerals and binary.
extension NumberTheory {
    // MARK: Figurate and special sequences

    /// F(0) ... F(92): every Fibonacci number that fits in Int64.
    static let fibonacciNumbers: [Int64] = {
        var result: [Int64] = [0, 1]
        while true {
            let (next, overflow) = result[result.count - 1].addingReportingOverflow(result[result.count - 2])
            if overflow { break }
            result.append(next)
        }
        return result
    }()

    /// The index k with F(k) == n (the larger one for n == 1, i.e. 2), or nil if n is not a
    /// Fibonacci number. Uses the 93 Fibonacci numbers that fit in Int64, so no overflow is possible.
    public static func fibonacciIndex(_ n: Int64) -> Int? {
        if n < 0 { return nil }
        var low = 0
        var high = fibonacciNumbers.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let value = fibonacciNumbers[mid]
            if value == n {
                return n == 1 ? 2 : mid
            } else if value < n {
                low = mid + 1
            } else {
                high = mid - 1
            }
        }
        return nil
    }

    /// The k with k(k+1)/2 == n, or nil when n is not triangular.
    public static func triangularIndex(_ n: Int64) -> Int64? {
        if n < 0 { return nil }
        // k(k+1) = 2n implies k = floor(sqrt(2n)); 2n <= 2^64 - 2 fits in UInt64.
        let twice = UInt64(n) * 2
        let k = integerSquareRoot(twice)
        let (product, overflow) = k.multipliedReportingOverflow(by: k + 1)
        return (!overflow && product == twice) ? Int64(k) : nil
    }

    /// The exponent e with 2^e == n, or nil.
    public static func powerOfTwoExponent(_ n: Int64) -> Int? {
        guard n > 0, n.nonzeroBitCount == 1 else { return nil }
        return n.trailingZeroBitCount
    }

    /// The exponent k >= 2 with n == 2^k - 1 (a Mersenne number), or nil.
    public static func mersenneExponent(_ n: Int64) -> Int? {
        guard n >= 3 else { return nil }
        // n + 1 may overflow only for Int64.max = 2^63 - 1; work in UInt64.
        let next = UInt64(n) + 1
        guard next.nonzeroBitCount == 1 else { return nil }
        return next.trailingZeroBitCount
    }

    // MARK: Digits

    /// The decimal digits of |n|, most significant first. Int64.min is handled via its magnitude.
    public static func decimalDigits(_ n: Int64) -> [Int] {
        var m = n.magnitude
        if m == 0 { return [0] }
        var digits: [Int] = []
        while m > 0 {
            digits.append(Int(m % 10))
            m /= 10
        }
        return digits.reversed()
    }

    /// Sum of the decimal digits of |n|.
    public static func digitSum(_ n: Int64) -> Int {
        decimalDigits(n).reduce(0, +)
    }

    /// True when the decimal digits of n (n >= 0) read the same in both directions.
    /// Negative numbers are not palindromes because of the leading sign.
    public static func isDecimalPalindrome(_ n: Int64) -> Bool {
        if n < 0 { return false }
        let digits = decimalDigits(n)
        return digits == digits.reversed()
    }

    /// True when n >= 1 is divisible by the sum of its digits.
    public static func isHarshad(_ n: Int64) -> Bool {
        guard n >= 1 else { return false }
        return n % Int64(digitSum(n)) == 0
    }

    // MARK: Collatz

    /// What happens when the Collatz map is iterated from a starting value.
    public enum CollatzOutcome: Sendable, Hashable {
        /// The sequence reaches 1 after `steps` steps; `peak` is the largest value visited.
        case reachesOne(steps: Int, peak: Int64)
        /// The next value `3 * value + 1` would not fit in Int64 after `steps` steps.
        case overflows(steps: Int, value: Int64)
        /// The step limit was hit before reaching 1 (not expected for any Int64 start).
        case stepLimitReached(steps: Int)
        /// The Collatz map is only defined here for positive starting values.
        case undefined
    }

    /// Iterates n -> n/2 (even), n -> 3n + 1 (odd) until 1, reporting overflow instead of trapping.
    public static func collatz(_ n: Int64, stepLimit: Int = 100_000) -> CollatzOutcome {
        guard n >= 1 else { return .undefined }
        var value = n
        var peak = n
        var steps = 0
        while value != 1 {
            if steps >= stepLimit { return .stepLimitReached(steps: steps) }
            if value & 1 == 0 {
                value /= 2
            } else {
                let (tripled, o1) = value.multipliedReportingOverflow(by: 3)
                let (next, o2) = tripled.addingReportingOverflow(1)
                if o1 || o2 { return .overflows(steps: steps, value: value) }
                value = next
            }
            peak = max(peak, value)
            steps += 1
        }
        return .reachesOne(steps: steps, peak: peak)
    }

    // MARK: Roman numerals

    static let romanTable: [(value: Int64, symbol: String)] = [
        (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"),
        (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
        (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
    ]

    /// The standard Roman numeral for 1...3999, nil otherwise.
    public static func romanNumeral(_ n: Int64) -> String? {
        guard (1...3999).contains(n) else { return nil }
        var remaining = n
        var result = ""
        for (value, symbol) in romanTable {
            while remaining >= value {
                result += symbol
                remaining -= value
            }
        }
        return result
    }

    // MARK: Binary

    /// Binary digits of n >= 0 without leading zeros, or the full 64-bit two's complement
    /// pattern for negative n.
    public static func binaryString(_ n: Int64) -> String {
        if n >= 0 { return String(n, radix: 2) }
        return String(UInt64(bitPattern: n), radix: 2)
    }
}
