/// The NumbersModule's `config` object in the manifest; every field is optional.
public struct NumbersConfiguration: Decodable, Sendable {
    /// How many entries each user's history keeps (oldest dropped first); default 100.
    public var historyLimit: Int
    /// The prime table's bound for fast small-number checks; default 1,048,576.
    public var primeTableBound: Int
    /// A state directory for this module alone, overriding the host's (relative to the manifest folder).
    public var stateDirectory: String?

    private enum CodingKeys: String, CodingKey {
        case historyLimit, primeTableBound, stateDirectory
    }

    /// Creates a configuration.
    public init(historyLimit: Int = 100, primeTableBound: Int = PrimeTable.defaultBound, stateDirectory: String? = nil) {
        self.historyLimit = historyLimit
        self.primeTableBound = primeTableBound
        self.stateDirectory = stateDirectory
    }

    /// Decodes the configuration and checks its ranges.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        historyLimit = try container.decodeIfPresent(Int.self, forKey: .historyLimit) ?? 100
        primeTableBound = try container.decodeIfPresent(Int.self, forKey: .primeTableBound) ?? PrimeTable.defaultBound
        stateDirectory = try container.decodeIfPresent(String.self, forKey: .stateDirectory)
        guard (1...10_000).contains(historyLimit) else {
            throw DecodingError.dataCorruptedError(forKey: .historyLimit, in: container,
                                                   debugDescription: "expected a history limit from 1 to 10000, found \(historyLimit)")
        }
        guard (2...PrimeTable.maximumBound).contains(primeTableBound) else {
            throw DecodingError.dataCorruptedError(forKey: .primeTableBound, in: container,
                                                   debugDescription: "expected a prime table bound from 2 to \(PrimeTable.maximumBound), found \(primeTableBound)")
        }
    }
}
