/// Finds the chain of operations that determined when the blocking phases finished.
///
/// Starting from the blocking-phase operation that finished last, it repeatedly steps back to the
/// predecessor that finished last among: the operation's dependencies; for an `.asyncHigh` operation,
/// the last `.high` operation (the phase gate); for a `.high` operation, the `.high` operation that ran
/// just before it (the serial slot). Waiting for a free concurrency slot is not modelled.
enum CriticalPath {
    /// The identifiers on the critical path, earliest first; empty when no blocking operation finished.
    static func compute(records: [StartupReport.OperationRecord]) -> [String] {
        var indexByIdentifier: [String: Int] = [:]
        for (index, record) in records.enumerated() where indexByIdentifier[record.identifier] == nil {
            indexByIdentifier[record.identifier] = index
        }
        let ran = records.indices.filter {
            records[$0].phase.isBlocking && records[$0].startedAt != nil && records[$0].finishedAt != nil
        }
        let high = ran.filter { records[$0].phase == .high }
        let lastHigh = latest(high, in: records)
        // `.high` operations sorted by finish time, to find a serial predecessor by binary search.
        let highByFinish = high.sorted {
            (records[$0].finishedAt ?? .zero, $0) < (records[$1].finishedAt ?? .zero, $1)
        }

        var path: [Int] = []
        var visited = Set<Int>()
        var current = latest(ran, in: records)
        while let index = current, visited.insert(index).inserted {
            path.append(index)
            let record = records[index]
            var candidates = record.dependencies.compactMap { indexByIdentifier[$0] }
                .filter { records[$0].finishedAt != nil && records[$0].phase.isBlocking }
            if record.phase == .asyncHigh, let lastHigh { candidates.append(lastHigh) }
            if record.phase == .high, let startedAt = record.startedAt,
               let previous = lastFinished(atOrBefore: startedAt, excluding: index, sorted: highByFinish, in: records) {
                candidates.append(previous)
            }
            current = latest(candidates.filter { !visited.contains($0) }, in: records)
        }
        return path.reversed().map { records[$0].identifier }
    }

    /// The operation in `sorted` (ordered by finish time) that finished last at or before `instant`.
    private static func lastFinished(
        atOrBefore instant: Duration, excluding excluded: Int, sorted: [Int], in records: [StartupReport.OperationRecord]
    ) -> Int? {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if (records[sorted[middle]].finishedAt ?? .zero) <= instant { low = middle + 1 } else { high = middle }
        }
        var position = low - 1
        while position >= 0, sorted[position] == excluded { position -= 1 }
        guard position >= 0 else { return nil }
        // Among equal finish times prefer the earliest index, matching `latest`.
        let finish = records[sorted[position]].finishedAt
        while position > 0, records[sorted[position - 1]].finishedAt == finish, sorted[position - 1] != excluded {
            position -= 1
        }
        return sorted[position]
    }

    /// The index whose record finished last; ties go to the earliest index.
    private static func latest(_ indices: [Int], in records: [StartupReport.OperationRecord]) -> Int? {
        var best: Int?
        for index in indices {
            guard let finished = records[index].finishedAt else { continue }
            if let current = best, let bestFinished = records[current].finishedAt {
                if finished > bestFinished || (finished == bestFinished && index < current) { best = index }
            } else {
                best = index
            }
        }
        return best
    }
}
