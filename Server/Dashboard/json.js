// Lossless JSON: a number whose text a JavaScript number would change (7.0, 1e400, 9223372036854775807) is kept as
// a JSONNumber holding that text, and written back exactly as it came. Every body the console sends or reads goes
// through parse/stringify, so an integer stays an integer and a double stays a double.

export class JSONNumber {
  constructor(text) { this.text = text; }
  valueOf() { return Number(this.text); }
  toString() { return this.text; }
}

export const isPlainObject = (value) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof JSONNumber);

/** Parses JSON text; throws SyntaxError. */
export function parse(text) {
  return JSON.parse(text, (key, value, context) => {
    if (typeof value !== 'number' || !context) return value;
    return String(value) === context.source ? value : new JSONNumber(context.source);
  });
}

/** JSON text of a value; `indent` (e.g. '  ') pretty-prints. */
export function stringify(value, indent = '') {
  return write(value, indent, '');
}

function write(value, indent, pad) {
  if (value instanceof JSONNumber) return value.text;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const inner = pad + indent;
  const wrap = (open, parts, close) => {
    if (!parts.length) return open + close;
    if (!indent) return open + parts.join(',') + close;
    return `${open}\n${inner}${parts.join(`,\n${inner}`)}\n${pad}${close}`;
  };
  if (Array.isArray(value)) return wrap('[', value.map((item) => write(item, indent, inner)), ']');
  const members = Object.entries(value).filter(([, item]) => item !== undefined);
  const colon = indent ? ': ' : ':';
  return wrap('{', members.map(([key, item]) => JSON.stringify(key) + colon + write(item, indent, inner)), '}');
}
