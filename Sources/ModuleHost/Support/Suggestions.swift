/// Finds the candidate closest to a misspelt name, for "did you mean" hints in diagnostics and hosts' CLIs.
package enum Suggestions {
    /// The candidate with the smallest edit distance to `name`, if it is close enough to be a plausible typo.
    ///
    /// Comparison ignores case. A candidate qualifies when its distance is at most a third of the longer
    /// name's length (at least 1, at most 4), or when one name ends with the other after a `.` (a missing or
    /// extra Swift module prefix). Ties go to the earlier candidate, so results are deterministic.
    package static func closest<S: Sequence>(to name: String, in candidates: S) -> String? where S.Element == String {
        let target = Array(name.lowercased().unicodeScalars)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let lowered = candidate.lowercased()
            if lowered.hasSuffix("." + name.lowercased()) || name.lowercased().hasSuffix("." + lowered) {
                return candidate
            }
            let other = Array(lowered.unicodeScalars)
            let limit = min(4, max(1, max(target.count, other.count) / 3))
            guard abs(target.count - other.count) <= limit else { continue }
            let distance = editDistance(target, other, limit: limit)
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Levenshtein distance, giving up early (returning `limit + 1`) once every path exceeds `limit`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
