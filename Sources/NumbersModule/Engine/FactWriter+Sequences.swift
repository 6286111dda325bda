import NumbersInterface

/// The facts of a number's place in sequences (Fibonacci, figurate numbers, powers, Collatz) and of its digits.
extension FactWriter {
    /// Membership of the Fibonacci sequence.
    mutating func addFibonacci() {
        if let k = fibonacci {
            let content: String
            switch n {
            case 0: content = "0 is the Fibonacci number F(0)."
            case 1: content = "1 is a Fibonacci number: F(1) = F(2) = 1."
            default: content = "\(text) is a Fibonacci number: F(\(k)) = \(text)."
            }
            add(.fibonacci, n > 3 ? 80 : 30, content)
        }
    }

    /// Triangular numbers.
    mutating func addTriangular() {
        if let k = NumberTheory.triangularIndex(n) {
            let content: String
            switch k {
            case 0: content = "0 is the triangular number T(0), the empty sum."
            case 1: content = "1 is the triangular number T(1)."
            case 2...5:
                let terms = (1...k).map(String.init).joined(separator: " + ")
                content = "\(text) is triangular: \(terms) = \(text), so it is T(\(k))."
            default:
                content = "\(text) is triangular: 1 + 2 + ... + \(k) = \(text), so it is T(\(k))."
            }
            add(.triangular, n > 3 ? 55 : 20, content)
        }
    }

    /// Perfect squares.
    mutating func addSquare() {
        if let r = squareRoot {
            add(.square, n > 1 ? 60 : 15, "\(text) is a perfect square: \(r)^2 = \(text).")
        }
    }

    /// Perfect cubes, and sixth powers.
    mutating func addCube() {
        if let r = cubeRoot {
            let base = r < 0 ? "(\(r))" : String(r)
            var sixth = ""
            var interest = n.magnitude > 1 ? 65 : 15
            if n > 1, squareRoot != nil, let s = NumberTheory.exactSquareRoot(r) {
                sixth = " Being both a square and a cube, it is the sixth power \(s)^6."
                interest = 75
            }
            add(.cube, interest, "\(text) is a perfect cube: \(base)^3 = \(text).\(sixth)")
        }
    }

    /// Powers of two.
    mutating func addPowerOfTwo() {
        if let e = NumberTheory.powerOfTwoExponent(n) {
            if e == 62 {
                add(.powerOfTwo, 95, "\(text) = 2^62 is the largest power of two that fits in Int64.")
            } else {
                add(.powerOfTwo, n >= 4 ? 62 : 15, "\(text) = 2^\(e) is a power of two.")
            }
        }
    }

    /// Decimal palindromes.
    mutating func addPalindrome() {
        if NumberTheory.isDecimalPalindrome(n) {
            if n < 10 {
                add(.palindrome, 5, "\(text) has a single digit, so it is trivially a palindrome.")
            } else {
                add(.palindrome, 50, "\(text) is a palindrome: its decimal digits read the same forwards and backwards.")
            }
        }
    }

    /// The Collatz trajectory (positive numbers).
    mutating func addCollatz() {
        if n >= 1 {
            let rule = "(halve if even, triple and add 1 if odd)"
            switch NumberTheory.collatz(n) {
            case .reachesOne(let steps, let peak):
                if steps == 0 {
                    add(.collatz, 10, "1 is where the Collatz map \(rule) ends: it takes 0 steps.")
                } else {
                    let plural = steps == 1 ? "step" : "steps"
                    add(.collatz, steps >= 100 ? 45 : 30, "\(text) reaches 1 after \(steps) \(plural) of the Collatz map \(rule), peaking at \(peak).")
                }
            case .overflows(let steps, let value):
                let plural = steps == 1 ? "step" : "steps"
                add(.collatz, 30, "Starting from \(text), the Collatz map \(rule) leaves the Int64 range after \(steps) \(plural): 3 x \(value) + 1 would exceed Int64.max, so the number of steps to reach 1 is not computed here.")
            case .stepLimitReached(let steps):
                add(.collatz, 30, "Starting from \(text), the Collatz map \(rule) had not reached 1 after \(steps) steps, so the count was stopped.")
            case .undefined:
                break
            }
        }
    }

    /// The Roman numeral, or why there is none.
    mutating func addRoman() {
        if let roman = NumberTheory.romanNumeral(n) {
            let note = n == 3999 ? ", the largest number with a standard Roman numeral" : ""
            add(.roman, n == 3999 ? 45 : 40, "\(text) in Roman numerals is \(roman)\(note).")
        } else if n == 0 {
            add(.roman, 12, "0 has no standard Roman numeral: the Romans had no symbol for zero, and standard numerals cover 1 to 3999.")
        } else {
            add(.roman, 2, "\(text) has no standard Roman numeral: standard Roman numerals cover only 1 to 3999.")
        }
    }

    /// Digit count, digit sum and digital root.
    mutating func addDigitSum() {
        let digits = NumberTheory.decimalDigits(n).count
        let root = digitSum == 0 ? 0 : 1 + (digitSum - 1) % 9
        let sign = n < 0 ? " (ignoring the sign)" : ""
        if digits == 1 {
            add(.digitSum, 5, "\(text) has a single digit\(sign), so its digit sum and digital root are both \(digitSum).")
        } else {
            add(.digitSum, 15, "\(text) has \(digits) digits\(sign), which sum to \(digitSum); its digital root is \(root).")
        }
    }

    /// Harshad numbers.
    mutating func addHarshad() {
        if n >= 10 && NumberTheory.isHarshad(n) {
            add(.harshad, 30, "\(text) is a Harshad number: it is divisible by its digit sum \(digitSum) (\(text) = \(digitSum) x \(n / Int64(digitSum))).")
        }
    }

    /// The binary form.
    mutating func addBinary() {
        let bits = NumberTheory.binaryString(n)
        if n >= 0 {
            let ones = n.nonzeroBitCount
            let palindrome = n > 0 && bits.count >= 3 && String(bits.reversed()) == bits
            let extra = palindrome ? ", and it reads the same backwards" : ""
            if n <= 1 {
                add(.binary, 5, "\(text) in binary is simply \(bits).")
            } else {
                add(.binary, palindrome ? 35 : 20, "\(text) in binary is \(bits): \(bits.count) bits, \(ones) of them set to 1\(extra).")
            }
        } else {
            let ones = n.nonzeroBitCount
            add(.binary, 20, "\(text) in 64-bit two's complement is \(bits): \(ones) of its 64 bits set to 1.")
        }
    }

    /// Even or odd.
    mutating func addParity() {
        add(.parity, 1, n & 1 == 0 ? "\(text) is even." : "\(text) is odd.")
    }
}
