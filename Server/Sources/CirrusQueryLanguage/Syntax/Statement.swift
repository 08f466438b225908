package import CirrusModel

/// A parsed CQL or BQL statement.
package enum Statement: Sendable, Hashable {
    case select(SelectStatement)
    case insert(InsertStatement)
    case update(UpdateStatement)
    case delete(DeleteStatement)
}

/// A statement and where each of its `?` placeholders is, in order.
package struct ParsedStatement: Sendable, Hashable {
    package var statement: Statement
    package var placeholders: [SourcePosition]
    /// Just past the last character, where errors about the statement as a whole point.
    package var end: SourcePosition

    package init(statement: Statement, placeholders: [SourcePosition], end: SourcePosition) {
        self.statement = statement
        self.placeholders = placeholders
        self.end = end
    }
}

/// The class a statement names, and where.
package struct ClassReference: Sendable, Hashable {
    package var name: String
    package var position: SourcePosition

    package init(_ name: String, at position: SourcePosition) {
        self.name = name
        self.position = position
    }
}

/// `select items from C [where …] [group by …] [having …] [limit [skip,] n] [order by …]`.
package struct SelectStatement: Sendable, Hashable {
    package var items: [SelectItem]
    package var className: ClassReference
    package var whereClause: Predicate?
    /// BQL only.
    package var groupBy: [Column]
    /// BQL only.
    package var having: Predicate?
    package var limit: LimitClause?
    package var order: OrderClause?

    package init(
        items: [SelectItem], className: ClassReference, whereClause: Predicate? = nil, groupBy: [Column] = [],
        having: Predicate? = nil, limit: LimitClause? = nil, order: OrderClause? = nil
    ) {
        self.items = items
        self.className = className
        self.whereClause = whereClause
        self.groupBy = groupBy
        self.having = having
        self.limit = limit
        self.order = order
    }
}

/// One entry of a select list.
package enum SelectItem: Sendable, Hashable {
    /// `*`
    case all(SourcePosition)
    /// `name`, `post.title`
    case column(Column)
    /// `count(*)` or `count(objectId)`
    case count(SourcePosition)
    /// `include post.author`
    case include(Column)
    /// BQL: `sum(score)`, `average(score)`, `max(score)`, `min(score)`.
    case aggregate(Aggregation.Function, Column)
    /// BQL: `groupcount`, each group's object count (`_count`).
    case groupCount(SourcePosition)
}

/// `limit n` or `limit skip, n`.
package struct LimitClause: Sendable, Hashable {
    package var skip: Expression?
    package var count: Expression

    package init(skip: Expression? = nil, count: Expression) {
        self.skip = skip
        self.count = count
    }
}

/// `order by -a, b, +c [asc|desc]`: the trailing direction applies to the keys written without a sign.
package struct OrderClause: Sendable, Hashable {
    package enum Sign: Sendable, Hashable {
        case none, ascending, descending
    }

    package struct Key: Sendable, Hashable {
        package var column: Column
        package var sign: Sign

        package init(_ column: Column, sign: Sign = .none) {
            self.column = column
            self.sign = sign
        }
    }

    package var keys: [Key]
    /// `desc` after the list.
    package var descending: Bool

    package init(keys: [Key], descending: Bool = false) {
        self.keys = keys
        self.descending = descending
    }
}

/// `insert into C(a, b) values (…), (…)`.
package struct InsertStatement: Sendable, Hashable {
    package var className: ClassReference
    package var columns: [Column]
    /// Each row and where its parenthesis opens.
    package var rows: [Row]

    package struct Row: Sendable, Hashable {
        package var values: [Expression]
        package var position: SourcePosition

        package init(_ values: [Expression], at position: SourcePosition) {
            self.values = values
            self.position = position
        }
    }

    package init(className: ClassReference, columns: [Column], rows: [Row]) {
        self.className = className
        self.columns = columns
        self.rows = rows
    }
}

/// `update C set a = …, b = op(…) where objectId = … [and …]`.
package struct UpdateStatement: Sendable, Hashable {
    package var className: ClassReference
    package var assignments: [Assignment]
    package var whereClause: Predicate
    /// Where the `where` keyword is, for errors about a missing objectId.
    package var wherePosition: SourcePosition

    package struct Assignment: Sendable, Hashable {
        package var column: Column
        package var value: Expression

        package init(_ column: Column, _ value: Expression) {
            self.column = column
            self.value = value
        }
    }

    package init(className: ClassReference, assignments: [Assignment], whereClause: Predicate, wherePosition: SourcePosition) {
        self.className = className
        self.assignments = assignments
        self.whereClause = whereClause
        self.wherePosition = wherePosition
    }
}

/// `delete from C where objectId = … [and …]`.
package struct DeleteStatement: Sendable, Hashable {
    package var className: ClassReference
    package var whereClause: Predicate
    package var wherePosition: SourcePosition

    package init(className: ClassReference, whereClause: Predicate, wherePosition: SourcePosition) {
        self.className = className
        self.whereClause = whereClause
        self.wherePosition = wherePosition
    }
}
