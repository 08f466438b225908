public import CirrusModel

/// A parsed CQL or BQL statement.
public enum Statement: Sendable, Hashable {
    case select(SelectStatement)
    case insert(InsertStatement)
    case update(UpdateStatement)
    case delete(DeleteStatement)
}

/// A statement and where each of its `?` placeholders is, in order.
public struct ParsedStatement: Sendable, Hashable {
    public var statement: Statement
    public var placeholders: [SourcePosition]
    /// Just past the last character, where errors about the statement as a whole point.
    public var end: SourcePosition

    public init(statement: Statement, placeholders: [SourcePosition], end: SourcePosition) {
        self.statement = statement
        self.placeholders = placeholders
        self.end = end
    }
}

/// The class a statement names, and where.
public struct ClassReference: Sendable, Hashable {
    public var name: String
    public var position: SourcePosition

    public init(_ name: String, at position: SourcePosition) {
        self.name = name
        self.position = position
    }
}

/// `select items from C [where …] [group by …] [having …] [limit [skip,] n] [order by …]`.
public struct SelectStatement: Sendable, Hashable {
    public var items: [SelectItem]
    public var className: ClassReference
    public var whereClause: Predicate?
    /// BQL only.
    public var groupBy: [Column]
    /// BQL only.
    public var having: Predicate?
    public var limit: LimitClause?
    public var order: OrderClause?

    public init(
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
public enum SelectItem: Sendable, Hashable {
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
public struct LimitClause: Sendable, Hashable {
    public var skip: Expression?
    public var count: Expression

    public init(skip: Expression? = nil, count: Expression) {
        self.skip = skip
        self.count = count
    }
}

/// `order by -a, b, +c [asc|desc]`: the trailing direction applies to the keys written without a sign.
public struct OrderClause: Sendable, Hashable {
    public enum Sign: Sendable, Hashable {
        case none, ascending, descending
    }

    public struct Key: Sendable, Hashable {
        public var column: Column
        public var sign: Sign

        public init(_ column: Column, sign: Sign = .none) {
            self.column = column
            self.sign = sign
        }
    }

    public var keys: [Key]
    /// `desc` after the list.
    public var descending: Bool

    public init(keys: [Key], descending: Bool = false) {
        self.keys = keys
        self.descending = descending
    }
}

/// `insert into C(a, b) values (…), (…)`.
public struct InsertStatement: Sendable, Hashable {
    public var className: ClassReference
    public var columns: [Column]
    /// Each row and where its parenthesis opens.
    public var rows: [Row]

    public struct Row: Sendable, Hashable {
        public var values: [Expression]
        public var position: SourcePosition

        public init(_ values: [Expression], at position: SourcePosition) {
            self.values = values
            self.position = position
        }
    }

    public init(className: ClassReference, columns: [Column], rows: [Row]) {
        self.className = className
        self.columns = columns
        self.rows = rows
    }
}

/// `update C set a = …, b = op(…) where objectId = … [and …]`.
public struct UpdateStatement: Sendable, Hashable {
    public var className: ClassReference
    public var assignments: [Assignment]
    public var whereClause: Predicate
    /// Where the `where` keyword is, for errors about a missing objectId.
    public var wherePosition: SourcePosition

    public struct Assignment: Sendable, Hashable {
        public var column: Column
        public var value: Expression

        public init(_ column: Column, _ value: Expression) {
            self.column = column
            self.value = value
        }
    }

    public init(className: ClassReference, assignments: [Assignment], whereClause: Predicate, wherePosition: SourcePosition) {
        self.className = className
        self.assignments = assignments
        self.whereClause = whereClause
        self.wherePosition = wherePosition
    }
}

/// `delete from C where objectId = … [and …]`.
public struct DeleteStatement: Sendable, Hashable {
    public var className: ClassReference
    public var whereClause: Predicate
    public var wherePosition: SourcePosition

    public init(className: ClassReference, whereClause: Predicate, wherePosition: SourcePosition) {
        self.className = className
        self.whereClause = whereClause
        self.wherePosition = wherePosition
    }
}
