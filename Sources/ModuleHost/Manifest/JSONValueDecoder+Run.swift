extension JSONValueDecoder {
    /// What one decoding run shares: the source the values' byte ranges index, and the objects visited.
    final class Run {
        let source: [UInt8]
        /// The objects keyed containers were made for, in the order they were made; an object opened twice is in it
        /// twice (``visitedObjects()`` merges them). An array, not a dictionary by offset: a dictionary of a new
        /// type costs the runtime a search of every conformance in the process on its first use.
        private var objects: [VisitedObject] = []

        init(source: [UInt8]) {
            self.source = source
        }

        /// Records that a keyed container was made for `value` (at `codingPath`); returns the index to mark its keys
        /// with.
        func open(_ value: JSONValue, codingPath: [any CodingKey]) -> Int {
            objects.append(VisitedObject(value: value, codingPath: codingPath))
            return objects.count - 1
        }

        /// Every object visited, once each, in source order, with what was asked of it however many times it was
        /// opened.
        func visitedObjects() -> [VisitedObject] {
            var merged: [VisitedObject] = []
            for object in objects.sorted(by: { $0.value.byteRange.lowerBound < $1.value.byteRange.lowerBound }) {
                if let last = merged.last, last.value.byteRange.lowerBound == object.value.byteRange.lowerBound {
                    merged[merged.count - 1].asked.formUnion(object.asked)
                    merged[merged.count - 1].readAllKeys = last.readAllKeys || object.readAllKeys
                } else {
                    merged.append(object)
                }
            }
            return merged
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

        mutating func formUnion(_ other: KeyList) {
            for key in other.many.map(Array.init) ?? other.few { insert(key) }
        }

        func contains(_ key: String) -> Bool {
            many?.contains(key) ?? few.contains(key)
        }

        var isEmpty: Bool { many?.isEmpty ?? few.isEmpty }

        func sorted() -> [String] { many.map { $0.sorted() } ?? few.sorted() }
    }
}
