/// The NumbersModule's `config` object in the manifest; every field is optional.
///
/// Decoding is the one place its fields are checked: validation (`app-shell validate`, manifest registration)
/// and loading (the module's `init(context:)`) both decode it, so both say the same thing about the same config.
public struct NumbersConfiguration: Decodable, Sendable {
    /// The values ``historyLimit`` may take.
    public static let historyLimitRange = 1...10_000
    /// The values ``primeTableBound`` may take.
    public static let primeTableBoundRange = 2...PrimeTable.maximumBound

    /// How many entries each user's history keeps (oldest dropped first); default 100.
    public var historyLimit: Int
    /// The prime table's bound for fast small-number checks; default 1,048,576.
    public var primeTableBound: Int
    /// A state directory for this module alone, overriding the host's (relative to the manifest folder).
    public var stateDirectory: String?

    private enum CodingKeys: String, CodingKey {
        case historyLimit, primeTableBound, stateDirectory
    }

    /// Creates a configuration; values outside ``historyLimitRange`` and ``primeTableBoundRange`` are clamped.
    public init(historyLimit: Int = 100, primeTableBound: Int = PrimeTable.defaultBound, stateDirectory: String? = nil) {
        self.historyLimit = historyLimit.clamped(to: Self.historyLimitRange)
        self.primeTableBound = primeTableBound.clamped(to: Self.primeTableBoundRange)
        self.stateDirectory = stateDirectory
    }

    /// Decodes the configuration, rejecting a number of the wrong kind or out of range with the field's path and
    /// the allowed range (`historyLimit: expected an integer from 1 to 10000, found 5.5`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        historyLimit = try Self.integer(.historyLimit, in: Self.historyLimitRange, from: container) ?? 100
        primeTableBound = try Self.integer(.primeTableBound, in: Self.primeTableBoundRange, from: container)
            ?? PrimeTable.defaultBound
        stateDirectory = try Self.string(.stateDirectory, from: container)
    }

    /// The integer at `key` if present; anything else there (a fraction, a number out of `range` or of `Int`,
    /// a string, `null`) is a `dataCorrupted` error located at the key.
    private static func integer(
        _ key: CodingKeys, in range: ClosedRange<Int>, from container: KeyedDecodingContainer<CodingKeys>
    ) throws -> Int? {
        guard container.contains(key) else { return nil }
        if let value = try? container.decode(Int.self, forKey: key), range.contains(value) { return value }
        throw DecodingError.dataCorrupted(.init(
            codingPath: container.codingPath + [key],
            debugDescription: "expected an integer from \(range.lowerBound) to \(range.upperBound), found \(found(key, in: container))"
        ))
    }

    /// The string at `key` if present; anything else there is a `dataCorrupted` error located at the key.
    private static func string(_ key: CodingKeys, from container: KeyedDecodingContainer<CodingKeys>) throws -> String? {
        guard container.contains(key) else { return nil }
        if let value = try? container.decode(String.self, forKey: key) { return value }
        throw DecodingError.dataCorrupted(.init(
            codingPath: container.codingPath + [key],
            debugDescription: "expected a string (a folder path), found \(found(key, in: container))"
        ))
    }

    /// A short description of the value at `key`, for an error message.
    private static func found(_ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>) -> String {
        if (try? container.decodeNil(forKey: key)) == true { return "null" }
        if let value = try? container.decode(Int.self, forKey: key) { return String(value) }
        if let value = try? container.decode(Double.self, forKey: key) {
            // A number that is no integer and reads as 0 (1e-400 underflows) is not 0: say what it is instead.
            if value == 0 { return "a number that is not an integer" }
            return value.isFinite ? "\(value)" : "a number too large for an integer"
        }
        if (try? container.decode(Bool.self, forKey: key)) != nil { return "a boolean" }
        if (try? container.decode(String.self, forKey: key)) != nil { return "a string" }
        if (try? container.nestedUnkeyedContainer(forKey: key)) != nil { return "an array" }
        return "an object"
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self {
        min(max(self, range.lowerBound), range.upperBound)
    }
}
