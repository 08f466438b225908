// Building `where` conditions: the filter builder's rows, and the keyset that pages a big class without `skip`.
import { isPlainObject, parse } from './json.js';
import { codecFor, ValueError } from './types.js';

export const OPERATORS = [
  ['eq', 'equals'], ['ne', 'not equal'], ['lt', '<'], ['lte', '<='], ['gt', '>'], ['gte', '>='],
  ['exists', 'exists'], ['missing', 'does not exist'], ['in', 'in list'], ['nin', 'not in list'],
  ['starts', 'starts with'], ['contains', 'contains'],
];
const COMPARISONS = { ne: '$ne', lt: '$lt', lte: '$lte', gt: '$gt', gte: '$gte' };
export const takesValue = (op) => op !== 'exists' && op !== 'missing';

/** Escapes a text for a regular expression that matches it literally. */
const escapeRegex = (text) => text.replace(/[\\^$.|?*+()[\]{}-]/g, '\\$&');

/**
 * One filter row as a condition {path: …}. `field` is the schema field of a top-level path (undefined for dot paths
 * and unknown fields, whose values are read as JSON when they are JSON).
 */
export function condition(path, op, text, field) {
  const key = path.trim();
  if (!key) throw new ValueError('Each condition needs a field.');
  const codec = codecFor(field);
  switch (op) {
    case 'eq': return { [key]: codec.parse(text) };
    case 'exists': return { [key]: { $exists: true } };
    case 'missing': return { [key]: { $exists: false } };
    case 'in': return { [key]: { $in: list(text, codec) } };
    case 'nin': return { [key]: { $nin: list(text, codec) } };
    case 'starts': return { [key]: { $regex: `^${escapeRegex(text)}` } };
    case 'contains': return { [key]: { $regex: escapeRegex(text) } };
    default: return { [key]: { [COMPARISONS[op]]: codec.parse(text) } };
  }
}

/** A list typed as a JSON array, or as comma-separated values of the field's type. */
function list(text, codec) {
  if (text.trim().startsWith('[')) {
    try {
      const values = parse(text);
      if (Array.isArray(values)) return values;
    } catch { /* read as a comma list */ }
  }
  return text.split(',').map((item) => item.trim()).filter((item) => item !== '').map(codec.parse);
}

const isOperatorObject = (value) => isPlainObject(value) && !value.__type && Object.keys(value).every((key) => key.startsWith('$'));

/** The conditions joined: in one object when their fields differ (or their operators merge), else `$and`. */
export function combine(conditions) {
  const merged = {};
  for (const item of conditions) {
    const [[key, value]] = Object.entries(item);
    if (!(key in merged)) merged[key] = value;
    else if (isOperatorObject(merged[key]) && isOperatorObject(value)
      && Object.keys(value).every((op) => !(op in merged[key]))) merged[key] = { ...merged[key], ...value };
    else return { $and: conditions };
  }
  return merged;
}

/**
 * Both conditions (either may be empty): in one object when they name different keys (geo conditions are refused
 * inside `$and`), else `$and`.
 */
export function and(first, second) {
  const [a, b] = [first ?? {}, second ?? {}];
  if (Object.keys(a).some((key) => key in b)) return { $and: [a, b] };
  return { ...a, ...b };
}

// --- Paging ---

export const PAGE_SIZE = 100;
export const SKIP_LIMIT = 10000;
export const DEFAULT_ORDER = '-createdAt';

/**
 * How pages of an order are read. Orders by createdAt page by keyset (createdAt, then objectId, after the last row):
 * each page is an index range, whatever the size of the class. Other orders page by `skip`, up to SKIP_LIMIT.
 */
export function paging(order = DEFAULT_ORDER) {
  const match = /^(-?)createdAt$/.exec(order);
  if (!match) return { keyset: false, order: `${order},objectId` };
  const descending = match[1] === '-';
  const op = descending ? '$lt' : '$gt';
  return {
    keyset: true,
    order: descending ? '-createdAt,-objectId' : 'createdAt,objectId',
    /**
     * The condition of the rows after `row`. The bound on createdAt alone (implied by the `$or`) lets the store read
     * the index from the cursor on: without it SQLite walks the index from its end to the cursor.
     */
    after(row) {
      const createdAt = { __type: 'Date', iso: row.createdAt };
      return {
        createdAt: { [`${op}e`]: createdAt },
        $or: [{ createdAt: { [op]: createdAt } }, { createdAt, objectId: { [op]: row.objectId } }],
      };
    },
  };
}
