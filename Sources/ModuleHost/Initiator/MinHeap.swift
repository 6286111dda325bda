/// A binary min-heap of integers, used to pick the earliest-registered ready operation in O(log n).
struct MinHeap {
    private var storage: [Int] = []

    /// Creates an empty heap with room for `capacity` elements.
    init(capacity: Int = 0) { storage.reserveCapacity(capacity) }

    /// Adds an element.
    mutating func push(_ value: Int) {
        storage.append(value)
        var child = storage.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            if storage[parent] <= storage[child] { break }
            storage.swapAt(parent, child)
            child = parent
        }
    }

    /// Removes and returns the smallest element, or `nil` when empty.
    mutating func pop() -> Int? {
        guard let last = storage.popLast() else { return nil }
        guard !storage.isEmpty else { return last }
        let top = storage[0]
        storage[0] = last
        var parent = 0
        let count = storage.count
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < count, storage[left] < storage[smallest] { smallest = left }
            if right < count, storage[right] < storage[smallest] { smallest = right }
            if smallest == parent { break }
            storage.swapAt(parent, smallest)
            parent = smallest
        }
        return top
    }
}
