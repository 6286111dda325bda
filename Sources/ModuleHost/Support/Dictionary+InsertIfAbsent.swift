extension Dictionary {
    /// Stores `value` under `key` unless the dictionary has the key; returns whether it stored. One hash, through the
    /// default subscript (which stores the default where the key is absent), where a lookup and an insertion take two.
    mutating func insertIfAbsent(_ value: Value, forKey key: Key) -> Bool {
        func reach(_: inout Value) {}
        let before = count
        reach(&self[key, default: value])
        return count != before
    }
}
