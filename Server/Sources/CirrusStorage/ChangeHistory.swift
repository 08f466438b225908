/// The recent records of a ``ChangeLog``, kept so that a LiveQuery client whose connection dropped can be given the
/// events it missed: at most `limit` records, none older than `retention`.
///
/// It covers the positions from its ``floor`` on: a position before it (the process started or began keeping history
/// after it, or its records were evicted) can no longer be fully answered, and ``records(after:through:)`` says so.
struct ChangeHistory {
    let limit: Int
    let retention: Duration
    /// The records in sequence order, each with when it was kept; `start` indexes the oldest (evicted ones before it
    /// are removed in bulk, so that evicting one stays O(1)).
    private var entries: [(record: ChangeRecord, keptAt: ContinuousClock.Instant)] = []
    private var start = 0
    /// The position the history answers from: every record after it is (or was, until evicted) here.
    private(set) var floor: Int64

    init(limit: Int, retention: Duration, floor: Int64) {
        self.limit = max(1, limit)
        self.retention = retention
        self.floor = floor
    }

    /// Keeps a record delivered after every one kept so far.
    mutating func keep(_ record: ChangeRecord, now: ContinuousClock.Instant) {
        entries.append((record, now))
        evict(now: now)
    }

    /// The records after `position` up to `through`, and whether they are all of them (`false` when some after
    /// `position` were never kept or were evicted, or `position` is past `through`).
    func records(after position: Int64, through last: Int64) -> (records: [ChangeRecord], complete: Bool) {
        guard position <= last else { return ([], false) }
        let kept = entries[start...]
        let first = kept.partitioningIndex { $0.record.sequence > position }
        let records = kept[first...].prefix { $0.record.sequence <= last }.map(\.record)
        return (records, position >= floor)
    }

    private mutating func evict(now: ContinuousClock.Instant) {
        let oldest = now - retention
        while start < entries.count, entries.count - start > limit || entries[start].keptAt < oldest {
            floor = max(floor, entries[start].record.sequence)
            start += 1
        }
        if start > 1_024, start * 2 > entries.count {
            entries.removeFirst(start)
            start = 0
        }
    }
}

extension Collection {
    /// The index of the first element satisfying `belongs`, for a collection whose elements that do come after all
    /// that do not (binary search).
    fileprivate func partitioningIndex(where belongs: (Element) -> Bool) -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if belongs(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
