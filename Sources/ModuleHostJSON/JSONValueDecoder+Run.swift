extension JSONValueDecoder {
    /// What one decoding run shares: the source the values' byte ranges index, and the objects visited.
    public final class Run {
        public let source: [UInt8]
        /// The objects keyed containers were made for, in the order they were made (the first apart, so that the
        /// usual flat configuration needs no array); an object opened twice is in it twice
        /// (``forEachVisitedObject(_:)`` merges them). An array, not a dictionary by offset: a dictionary of a new
        /// type costs the runtime a search of every conformance in the process on its first use.
        private var first: VisitedObject?
        private var others: [VisitedObject] = []

        public init(source: [UInt8]) {
            self.source = source
        }

        /// Records that a keyed container was made for `value` (at `codingPath`); returns the index to mark its keys
        /// with.
        public func open(_ value: JSONValue, codingPath: [any CodingKey]) -> Int {
            guard first != nil else {
                first = VisitedObject(value: value, codingPath: codingPath)
                return 0
            }
            others.append(VisitedObject(value: value, codingPath: codingPath))
            return others.count
        }

        /// Calls `body` with every object visited, once each, in source order, with what was asked of it however
        /// many times it was opened.
        public func forEachVisitedObject(_ body: (VisitedObject) -> Void) {
            guard let first else { return }
            guard !others.isEmpty else { return body(first) }  // a flat configuration: nothing to order or merge
            var merged: [VisitedObject] = []
            for object in ([first] + others).sorted(by: { $0.value.byteRange.lowerBound < $1.value.byteRange.lowerBound }) {
                if let last = merged.last, last.value.byteRange.lowerBound == object.value.byteRange.lowerBound {
                    merged[merged.count - 1].merge(object)
                } else {
                    merged.append(object)
                }
            }
            merged.forEach(body)
        }

        /// Notes that the object at `index` was asked for `key`, which is its member at `member` (`nil` when it has
        /// no such member).
        public func markAsked(_ key: String, member: Int?, in index: Int) {
            if index == 0 { first?.markAsked(key, member: member) } else { others[index - 1].markAsked(key, member: member) }
        }

        /// Notes that the object at `index` had its keys enumerated (its type checks them itself).
        public func markReadAll(in index: Int) {
            if index == 0 { first?.readAllKeys = true } else { others[index - 1].readAllKeys = true }
        }

        public func text(of value: JSONValue) -> String? {
            guard value.byteRange.upperBound <= source.count else { return nil }
            return String(decoding: source[value.byteRange], as: UTF8.self)
        }

        /// The integer `value`'s text spells exactly, or `nil` if it spells a fraction or does not fit `T`. Read
        /// from the bytes (no string is made), digit by digit: a JSON number is `-?digits(.digits)?([eE][+-]?digits)?`,
        /// and it is an integer when every digit after the point, once the exponent has moved it, is 0.
        public func integer<T: FixedWidthInteger>(in value: JSONValue) -> T? {
            let range = value.byteRange
            guard range.upperBound <= source.count, !range.isEmpty else { return nil }
            guard let number = NumberText(source[range]) else { return nil }
            // The digits before the point, once the exponent has moved it: the integer part.
            let pointAt = number.integerDigits.count + number.exponent
            var result: T = 0
            for (position, digit) in number.digits.enumerated() {
                if position >= pointAt {
                    guard digit == 0 else { return nil }  // a fraction
                    continue
                }
                guard let next = Self.appending(digit, to: result, negative: number.negative) else { return nil }
                result = next
            }
            // Zeros the exponent adds after the digits (1e3): bounded, since 0 stays 0 and anything else overflows.
            if result != 0 {
                var trailing = pointAt - number.digits.count
                while trailing > 0 {
                    guard let next = Self.appending(0, to: result, negative: number.negative) else { return nil }
                    result = next
                    trailing -= 1
                }
            }
            return result
        }

        private static func appending<T: FixedWidthInteger>(_ digit: UInt8, to value: T, negative: Bool) -> T? {
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (next, carried) = negative ? shifted.subtractingReportingOverflow(T(digit))
                                           : shifted.addingReportingOverflow(T(digit))
            return overflowed || carried ? nil : next
        }
    }

    /// A JSON number's text taken apart: its sign, its digits (those before the point, then those after) and its
    /// exponent.
    public struct NumberText {
        public var negative = false
        /// The digits before the point and after it, as values 0–9.
        public var digits: [UInt8] = []
        public var integerDigits: ArraySlice<UInt8> { digits[..<pointIndex] }
        private var pointIndex = 0
        /// The exponent, clamped to ±2^52: exact for any text that fits in memory, since a number with fewer digits
        /// than that is an integer, 0 or an overflow alike for every exponent beyond it.
        public var exponent = 0

        public init?(_ text: ArraySlice<UInt8>) {
            var index = text.startIndex
            if index < text.endIndex, text[index] == UInt8(ascii: "-") { negative = true; index += 1 }
            while index < text.endIndex, let digit = Self.digit(text[index]) { digits.append(digit); index += 1 }
            pointIndex = digits.count
            guard pointIndex > 0 else { return nil }
            if index < text.endIndex, text[index] == UInt8(ascii: ".") {
                index += 1
                while index < text.endIndex, let digit = Self.digit(text[index]) { digits.append(digit); index += 1 }
            }
            if index < text.endIndex, text[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                var exponentNegative = false
                if index < text.endIndex, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                    exponentNegative = text[index] == UInt8(ascii: "-")
                    index += 1
                }
                var magnitude = 0
                var any = false
                while index < text.endIndex, let digit = Self.digit(text[index]) {
                    magnitude = min(magnitude * 10 + Int(digit), 1 << 52)
                    any = true
                    index += 1
                }
                guard any else { return nil }
                exponent = exponentNegative ? -magnitude : magnitude
            }
            guard index == text.endIndex else { return nil }
        }

        private static func digit(_ byte: UInt8) -> UInt8? {
            let value = byte &- UInt8(ascii: "0")
            return value < 10 ? value : nil
        }
    }

    /// An object the configuration's `init(from:)` opened, and the keys it asked for.
    public struct VisitedObject {
        public let value: JSONValue
        public let codingPath: [any CodingKey]
        /// The members asked for, by index: a bit each for the first 64, a set for the rest. Bits rather than the
        /// keys' names: no string is kept, and the usual object takes no allocation.
        private var askedMembers: UInt64 = 0
        private var askedBeyond: Set<Int> = []
        /// The keys asked for that the object does not have (an optional field left out), for messages.
        private var askedAbsent: Set<String> = []
        public var readAllKeys = false

        public init(value: JSONValue, codingPath: [any CodingKey]) {
            self.value = value
            self.codingPath = codingPath
        }

        /// The object's members.
        public var members: [JSONValue.Member] {
            guard case .object(let members) = value.kind else { return [] }
            return members
        }

        public mutating func markAsked(_ key: String, member: Int?) {
            guard let member else {
                askedAbsent.insert(key)
                return
            }
            if member < UInt64.bitWidth { askedMembers |= 1 << UInt64(member) } else { askedBeyond.insert(member) }
        }

        /// Whether the member at `index` was asked for. Only the last member of a repeated key is: the earlier ones
        /// are reported as repeated, and ``askedKeys`` has their key.
        public func wasAsked(member index: Int) -> Bool {
            index < UInt64.bitWidth ? askedMembers & (1 << UInt64(index)) != 0 : askedBeyond.contains(index)
        }

        /// Every key asked for: those of the members asked for, and those asked for but absent.
        public var askedKeys: Set<String> {
            let members = members
            var keys = askedAbsent
            for index in members.indices where wasAsked(member: index) { keys.insert(members[index].key) }
            return keys
        }

        /// Adds what was asked of the same object, opened again.
        public mutating func merge(_ other: VisitedObject) {
            askedMembers |= other.askedMembers
            askedBeyond.formUnion(other.askedBeyond)
            askedAbsent.formUnion(other.askedAbsent)
            readAllKeys = readAllKeys || other.readAllKeys
        }
    }
}
