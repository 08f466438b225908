/// The functions the PostgreSQL dialect's SQL calls (and the change log, PostgresDialect+ChangeLog.swift), created by the system migrations (``SystemSchema/migrations(_:)``
/// puts each at its place in the order of names).
extension PostgresDialect {
    package var dialectMigrations: [SystemSchema.Migration] {
        [Self.jsonPathFunctions, Self.doubleFunction, Self.exactDoubleFunction, Self.changeLogTable]
    }

    /// PostgreSQL: nested writes that behave like SQLite's `json_set` and `json_remove`, which the SQLite
    /// dialect uses, so that both stores give the same document.
    ///
    /// `cirrus_set_path` creates missing parent objects (and appends when an index is exactly the length
    /// of its array) and leaves the document unchanged when a parent is a scalar or `null`, when an array
    /// is given a non-numeric segment, or when an index lies past the end. `cirrus_remove_path` leaves the
    /// document unchanged where `#-` would raise an error. Nested `IF`s guard the casts, since PostgreSQL
    /// does not promise to evaluate `AND` from left to right.
    static let jsonPathFunctions = SystemSchema.Migration(name: "0003_cirrus_json_paths", statements: [
        """
        CREATE OR REPLACE FUNCTION cirrus_set_path(document jsonb, path text[], value jsonb) RETURNS jsonb
        LANGUAGE plpgsql IMMUTABLE AS $$
        DECLARE
            depth int;
            parent jsonb;
            child jsonb;
        BEGIN
            FOR depth IN 1 .. array_length(path, 1) LOOP
                parent := document #> path[1:depth - 1];
                IF jsonb_typeof(parent) = 'object' THEN
                    child := parent -> path[depth];
                ELSIF jsonb_typeof(parent) = 'array' AND path[depth] ~ '^[0-9]{1,9}$' THEN
                    IF path[depth]::int > jsonb_array_length(parent) THEN
                        RETURN document;
                    END IF;
                    child := parent -> path[depth]::int;
                ELSE
                    RETURN document;
                END IF;
                IF child IS NULL AND depth < array_length(path, 1) THEN
                    document := jsonb_set(document, path[1:depth], '{}'::jsonb, true);
                END IF;
            END LOOP;
            RETURN jsonb_set(document, path, value, true);
        END
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION cirrus_remove_path(document jsonb, path text[]) RETURNS jsonb
        LANGUAGE plpgsql IMMUTABLE AS $$
        DECLARE
            depth int;
            parent jsonb;
        BEGIN
            FOR depth IN 1 .. array_length(path, 1) LOOP
                parent := document #> path[1:depth - 1];
                IF jsonb_typeof(parent) = 'array' THEN
                    IF path[depth] !~ '^[0-9]{1,9}$' THEN
                        RETURN document;
                    END IF;
                ELSIF jsonb_typeof(parent) IS DISTINCT FROM 'object' THEN
                    RETURN document;
                END IF;
            END LOOP;
            RETURN document #- path;
        END
        $$
        """,
    ])

    /// PostgreSQL: a double as SQLite's JSON writes it, so that arithmetic gives the same documents on both stores:
    /// integral values keep a `.0` (`2.0`, not `2`, which would read back as an integer), others their shortest
    /// exact text (`0.30000000000000004`); NaN and infinities, which JSON lacks, become `null`.
    static let doubleFunction = SystemSchema.Migration(name: "0007_cirrus_double_jsonb", statements: [
        """
        CREATE OR REPLACE FUNCTION cirrus_double_jsonb(value float8) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
          SELECT CASE
            WHEN value = 'NaN'::float8 OR value = 'Infinity'::float8 OR value = '-Infinity'::float8 THEN 'null'::jsonb
            WHEN value = trunc(value) THEN to_jsonb(value::numeric(1000, 1))
            ELSE (value::text)::jsonb
          END
        $$
        """,
    ])

    /// PostgreSQL: ``doubleFunction`` wrote an integral double through `numeric`, which keeps 15 significant digits
    /// (2^63 became 9223372036854780000.0); its shortest exact text keeps every double as SQLite writes it.
    static let exactDoubleFunction = SystemSchema.Migration(name: "0011_cirrus_double_jsonb_exact", statements: [
        """
        CREATE OR REPLACE FUNCTION cirrus_double_jsonb(value float8) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
          SELECT CASE
            WHEN value = 'NaN'::float8 OR value = 'Infinity'::float8 OR value = '-Infinity'::float8 THEN 'null'::jsonb
            WHEN value = trunc(value) THEN to_jsonb((value::text)::numeric(1000, 1))
            ELSE (value::text)::jsonb
          END
        $$
        """,
    ])
}
