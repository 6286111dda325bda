/// One true statement about a number, in readable English.
public struct NumberFact: Sendable, Hashable, Codable {
    /// The family a fact belongs to. Declaration order is the order in which
    /// the NumbersModule lists facts.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// 0, 1 and -1: neither prime nor composite.
        case unit
        /// Int64.min or Int64.max.
        case extreme
        /// The sign of a negative number and its absolute value.
        case negative
        case prime
        /// A composite number's prime factorisation.
        case composite
        /// n = 2^k - 1.
        case mersenne
        case perfect
        case abundant
        case deficient
        case fibonacci
        case triangular
        case square
        case cube
        case powerOfTwo
        case palindrome
        case collatz
        case roman
        case digitSum
        case harshad
        case binary
        case parity
    }

    /// The number the fact is about.
    public let number: Int64
    /// The fact, as an English sentence.
    public let content: String
    /// The family of the fact.
    public let kind: Kind

    /// Creates a fact.
    public init(number: Int64, content: String, kind: Kind) {
        self.number = number
        self.content = content
        self.kind = kind
    }
}
