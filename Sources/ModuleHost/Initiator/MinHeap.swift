/// A binary min-heap of integers, used to pick the earliest-registered ready operation in O(log n).
struct MinHeap {
    private var storage: [Int] = []

    /// Creates an empty heap with room for `capacity` elements.
    init(capacity: Int = 0) { storage.reserveCapacity(capacity) }

    /// Whether the heap holds no element.
    var isEmpty: Bool { storage.isEmpty }

    /// Adds an element.
    mutating func push(_ value: Int) {
        storage.append(value)
        storage.withUnsafeMutableBufferPointer { heap in
            // Sift up with a hole: move parents down until `value`'s place is found, then write it once.
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                let parentValue = heap[parent]
                if parentValue <= value { break }
                heap[child] = parentValue
                child = parent
            }
            heap[child] = value
        }
    }

    /// Removes and returns the smallest element, or `nil` when empty.
    mutating func pop() -> Int? {
        guard let last = storage.popLast() else { return nil }
        guard !storage.isEmpty else { return last }
        return storage.withUnsafeMutableBufferPointer { heap in
            let top = heap[0]
            // Sift `last` down from the root with a hole, writing it once at its place.
            let count = heap.count
            var parent = 0
            while true {
                var child = 2 * parent + 1
                if child >= count { break }
                if child + 1 < count, heap[child + 1] < heap[child] { child += 1 }
                if last <= heap[child] { break }
                heap[parent] = heap[child]
                parent = child
            }
            heap[parent] = last
            return top
        }
    }
}
