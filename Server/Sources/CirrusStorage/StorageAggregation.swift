package import CirrusModel

/// A statistics query for a store: the rows it aggregates (``query``, whose order and page are ignored) and
/// what to compute over them.
package struct StorageAggregation: Sendable {
    /// The class, its schema and the condition (with any read restriction) selecting the rows.
    package var query: StorageQuery
    /// Group keys, computed values, `HAVING`, order and page of the result rows.
    package var aggregation: Aggregation
    /// The zone in which a Date group key is cut into days, in minutes east of UTC.
    package var dayOffsetMinutes: Int

    package init(query: StorageQuery, aggregation: Aggregation, dayOffsetMinutes: Int = 0) {
        self.query = query
        self.aggregation = aggregation
        self.dayOffsetMinutes = dayOffsetMinutes
    }
}
