@testable import ModuleHost
import Testing

/// `Dictionary.insertIfAbsent(_:forKey:)`, which the resolution cache stores with: the first value stored stays.
@Suite("Inserting where a key is absent")
struct InsertIfAbsentTests {
    @Test func storesUnderAnAbsentKeyAndSaysSo() {
        var table: [String: Int] = ["a": 1]
        let stored = table.insertIfAbsent(2, forKey: "b")
        #expect(stored)
        #expect(table == ["a": 1, "b": 2])
    }

    @Test func keepsTheValueAlreadyStoredAndSaysSo() {
        var table: [String: Int] = ["a": 1]
        let stored = table.insertIfAbsent(2, forKey: "a")
        #expect(!stored)
        #expect(table == ["a": 1])
    }
}
