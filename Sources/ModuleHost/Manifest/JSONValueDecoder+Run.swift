extension JSONValueDecoder {
    /// What one decoding run shares: the source the values' byte ranges index, and the objects visited.
    final class Run {
        let source: [UInt8]
        /// Each object a keyed container was made for, in the order they were first visited.
        private(set) var objects: [VisitedObject] = []
        /// Where each visited object is in `objects`, by the offset of its first byte.
        private var indexByStart: [Int: Int] = [:]

        init(source: [UInt8]) {
            self.source = source
        }

        /// The index in ``objects`` of the object `value` (at `codingPath`), added on its first visit.
        func visit(_ value: JSONValue, codingPath: @autoclosure () -> [any CodingKey]) -> Int {
            let start = value.byteRange.lowerBound
            if let index = indexByStart[start] { return index }
            objects.append(VisitedObject(value: value, codingPath: codingPath()))
            indexByStart[start] = objects.count - 1
            return objects.count - 1
        }

        /// Notes that the object at `index` was asked for `key`.
        func markAsked(_ key: String, in index: Int) {
            objects[index].asked.insert(key)
        }

        /// Notes that the object at `index` had its keys enumerated (its type checks them itself).
        func markReadAll(in index: Int) {
            objects[index].readAllKeys = true
        }

        func text(of value: JSONValue) -> String? {
            guard value.byteRange.upperBound <= source.count else { return nil }
            return String(decoding: source[value.byteRange], as: UTF8.self)
        }

        /// The integer `value` spells (its own digits: a `Double` loses them past 2^53), or `nil` if it does not fit
        /// `T` or is not a plain integer. Read from the bytes, so no string is made.
        func integer<T: FixedWidthInteger>(in value: JSONValue) -> T? {
            let range = value.byteRange
            guard range.upperBound <= source.count, !range.isEmpty else { return nil }
            var index = range.lowerBound
            let negative = source[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            guard index < range.upperBound else { return nil }
            var result: T = 0
            while index < range.upperBound {
                let digit = source[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                let (shifted, overflowed) = result.multipliedReportingOverflow(by: 10)
                let (next, carried) = negative ? shifted.subtractingReportingOverflow(T(digit)) : shifted.addingReportingOverflow(T(digit))
                guard !overflowed, !carried else { return nil }
                result = next
                index += 1
            }
            return result
        }
    }

    /// An object the configuration's `init(from:)` opened, and the keys it asked for.
    struct VisitedObject {
        let value: JSONValue
        let codingPath: [any CodingKey]
        var asked = KeyList()
        var readAllKeys = false
    }

    /// Distinct keys: a short list searched in order while small (the usual object has a few fields, and hashing
    /// each costs more than comparing), a set once it grows, so that many keys still cost linear time.
    struct KeyList {
        private var few: [String] = []
        private var many: Set<String>?
        private static let largestList = 16

        mutating func insert(_ key: String) {
            if many != nil {
                many?.insert(key)
            } else if !few.contains(key) {
                few.append(key)
                if few.count > Self.largestList {
                    many = Set(few)
                    few = []
                }
            }
        }

        func contains(_ key: String) -> Bool {
            many?.contains(key) ?? few.contains(key)
        }

        var isEmpty: Bool { many?.isEmpty ?? few.isEmpty }

        func sorted() -> [String] { many.map { $0.sorted() } ?? few.sorted() }
    }
}
