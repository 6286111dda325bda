/// The ready set of a Kahn ordering over integer keys in `0..<keyCount`, popped smallest key first.
///
/// Keys at or above a cursor live in a bitmap, keys pushed below it in a ``MinHeap``. A pop takes the heap's
/// smallest key if there is one (every heap key is below the cursor, every bitmap key at or above it), else the
/// bitmap's first key from the cursor on, and moves the cursor just past it; the cursor never moves back. When
/// dependents come after their dependencies in key order, as they usually do, every push lands in the bitmap:
/// O(1) per push and O(keyCount / 64) for all the scanning together. A key pushed below the cursor costs a
/// heap operation, O(log n), so the worst case is that of a plain min-heap.
///
/// Each key may be pushed at most once.
struct ReadyQueue {
    /// Bit `key % 64` of word `key / 64` is set for each ready key at or above `cursor`.
    private var words: [UInt64]
    /// Every ready key in `words` is at least this; every key in `below` is less.
    private var cursor = 0
    /// How many keys `words` holds.
    private var bitmapCount = 0
    /// Ready keys pushed below `cursor`.
    private var below = MinHeap()

    /// Creates an empty queue for keys in `0..<keyCount`.
    init(keyCount: Int) {
        words = [UInt64](repeating: 0, count: (max(0, keyCount) + 63) / 64)
    }

    /// Whether no key is ready.
    var isEmpty: Bool { bitmapCount == 0 && below.isEmpty }

    /// Adds a key in `0..<keyCount` that is not in the queue and has not been popped.
    mutating func push(_ key: Int) {
        if key < cursor {
            below.push(key)
        } else {
            words[key &>> 6] |= 1 &<< UInt64(key & 63)
            bitmapCount += 1
        }
    }

    /// Removes and returns the smallest key, or `nil` when none is ready.
    mutating func pop() -> Int? {
        if let key = below.pop() { return key }
        guard bitmapCount > 0 else { return nil }
        var word = cursor &>> 6
        while words[word] == 0 { word += 1 }  // a set bit exists at or after the cursor
        let bits = words[word]
        words[word] = bits & (bits &- 1)
        bitmapCount -= 1
        let key = word &<< 6 | bits.trailingZeroBitCount
        cursor = key + 1
        return key
    }
}
