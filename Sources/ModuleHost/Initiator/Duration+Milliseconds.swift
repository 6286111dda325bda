extension Duration {
    /// The duration in (fractional) milliseconds, as reports encode it.
    var milliseconds: Double {
        let parts = components
        return Double(parts.seconds) * 1_000 + Double(parts.attoseconds) / 1e15
    }

    /// A duration from (fractional) milliseconds.
    static func milliseconds(fractional value: Double) -> Duration {
        .nanoseconds(Int64((value * 1e6).rounded()))
    }
}

extension KeyedEncodingContainer {
    /// Encodes an optional duration as milliseconds, omitting it when `nil`.
    mutating func encodeMilliseconds(_ value: Duration?, forKey key: Key) throws {
        try encodeIfPresent(value?.milliseconds, forKey: key)
    }
}

extension KeyedDecodingContainer {
    /// Decodes an optional duration stored as milliseconds; values beyond what a duration can hold are an error.
    func decodeMilliseconds(forKey key: Key) throws -> Duration? {
        guard let value = try decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard value.isFinite, abs(value) < 9e12 else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self,
                                                   debugDescription: "expected a number of milliseconds below 9e12, found \(value)")
        }
        return Duration.milliseconds(fractional: value)
    }
}
