// The one codec of field values by schema type, used by the cells, the editors and the filter builder:
// `text(value)` is the editable text of a value, `parse(text, field)` the value typed text stands for (it throws a
// ValueError with a message for the user), `label(value)` a short display text, `wire(value)` the form to write back.
import { parse as parseJSON, stringify, isPlainObject } from './json.js';

export class ValueError extends Error {}

export const TYPES = ['String', 'Number', 'Boolean', 'Date', 'Object', 'Array', 'Pointer', 'Relation', 'File', 'GeoPoint', 'Bytes'];
export const BUILT_IN = ['objectId', 'createdAt', 'updatedAt', 'ACL'];
/** Fields the server keeps: shown, never edited. */
export const SERVER_KEPT = ['objectId', 'createdAt', 'updatedAt'];

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function json(text, what) {
  try {
    return parseJSON(text);
  } catch (error) {
    throw new ValueError(`Invalid JSON${what ? ` for ${what}` : ''}: ${error.message}`);
  }
}

function number(text) {
  const trimmed = text.trim();
  if (!NUMBER.test(trimmed)) throw new ValueError(`"${text}" is not a number.`);
  return parseJSON(trimmed);
}

function date(text) {
  let iso = text.trim();
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(iso)) iso += 'Z'; // no zone given: UTC
  const instant = new Date(iso);
  if (!/^\d{4}-\d{2}-\d{2}/.test(iso) || Number.isNaN(instant.getTime())) {
    throw new ValueError(`"${text}" is not an ISO 8601 date such as 2024-05-01T12:00:00.000Z.`);
  }
  return { __type: 'Date', iso: instant.toISOString() };
}

function geoPoint(text) {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length !== 2 || !parts.every((part) => NUMBER.test(part))) {
    throw new ValueError(`"${text}" is not "latitude, longitude".`);
  }
  const [latitude, longitude] = parts.map(Number);
  if (Math.abs(latitude) > 90) throw new ValueError('The latitude must lie between -90 and 90.');
  if (Math.abs(longitude) > 180) throw new ValueError('The longitude must lie between -180 and 180.');
  return { __type: 'GeoPoint', latitude, longitude };
}

function objectId(text) {
  const id = text.trim();
  if (!id) throw new ValueError('An objectId is required.');
  return id;
}

const pointer = (className, id) => ({ __type: 'Pointer', className, objectId: id });

function acl(text) {
  const value = json(text, 'the ACL');
  const valid = isPlainObject(value) && Object.values(value).every((entry) => isPlainObject(entry)
    && Object.entries(entry).every(([right, flag]) => ['read', 'write'].includes(right) && typeof flag === 'boolean'));
  if (!valid) throw new ValueError('An ACL is {"*": {"read": true}, "<user id>" or "role:<name>": {"read": …, "write": …}}.');
  return value;
}

/** "*: read, role:Admins: read write" */
export function aclLabel(value) {
  if (!isPlainObject(value)) return '';
  const entries = Object.entries(value).map(([who, rights]) =>
    `${who === '*' ? 'public' : who}: ${['read', 'write'].filter((right) => rights?.[right]).join('+') || 'none'}`);
  return entries.length ? entries.join('; ') : 'master key only';
}

const jsonText = (value) => stringify(value, '  ');

const CODECS = {
  String: { text: String, parse: (text) => text },
  Number: { text: String, parse: number },
  Boolean: {
    text: String,
    parse(text) {
      if (text.trim() === 'true') return true;
      if (text.trim() === 'false') return false;
      throw new ValueError(`"${text}" is not true or false.`);
    },
  },
  Date: { text: (value) => (typeof value === 'string' ? value : value?.iso ?? ''), parse: date },
  GeoPoint: { text: (value) => `${value.latitude}, ${value.longitude}`, parse: geoPoint },
  Pointer: {
    text: (value) => value.objectId ?? '',
    parse: (text, field) => pointer(field.targetClass, objectId(text)),
  },
  Relation: {
    // A Relation has no value of its own; in a filter a pointer means "the relation holds it".
    text: () => '',
    label: (value) => `→ ${value.className}`,
    parse: (text, field) => pointer(field.targetClass, objectId(text)),
    wire: () => undefined,
  },
  File: {
    text: (value) => value.objectId ?? value.id ?? '',
    label: (value) => value.name ?? value.objectId ?? value.id ?? '',
    parse: (text) => ({ __type: 'File', id: objectId(text) }),
    wire: (value) => (value.objectId || value.id ? { __type: 'File', id: value.objectId ?? value.id } : value),
  },
  Array: {
    text: jsonText,
    label: (value) => stringify(value),
    parse(text) {
      const value = json(text);
      if (!Array.isArray(value)) throw new ValueError('An Array column takes a JSON array: [ … ].');
      return value;
    },
  },
  Object: {
    text: jsonText,
    label: (value) => stringify(value),
    parse(text) {
      const value = json(text);
      if (!isPlainObject(value)) throw new ValueError('An Object column takes a JSON object: { … }.');
      return value;
    },
  },
  Bytes: {
    text: (value) => value.base64 ?? '',
    parse(text) {
      const base64 = text.replace(/\s+/g, '');
      if (!BASE64.test(base64)) throw new ValueError('Bytes are written in base64.');
      return { __type: 'Bytes', base64 };
    },
  },
  ACL: { text: jsonText, label: aclLabel, parse: acl },
  // A field the schema does not know (or a dot path): JSON when the text is JSON, else the text as a string.
  Any: {
    text: (value) => (typeof value === 'string' ? value : stringify(value)),
    label: (value) => (typeof value === 'string' ? value : stringify(value)),
    parse(text) {
      try { return parseJSON(text); } catch { return text; }
    },
  },
};

/** The codec of a field ({name, type, targetClass}); `Any` for unknown types. */
export function codecFor(field) {
  const codec = CODECS[field?.type] ?? CODECS.Any;
  return {
    text: (value) => (value === undefined || value === null ? '' : codec.text(value)),
    label: (value) => (value === undefined ? '' : value === null ? 'null' : (codec.label ?? codec.text)(value)),
    parse: (text) => codec.parse(text, field),
    wire: (value) => (value === null || !codec.wire ? value : codec.wire(value)),
  };
}

/** The fields of a schema ({name: {type, className|targetClass, …}}) as a list, in display order. */
export function fieldList(schemaFields) {
  const fields = Object.entries(schemaFields ?? {}).map(([name, spec]) => ({
    name, type: spec.type, targetClass: spec.targetClass ?? spec.className,
    readOnly: Boolean(spec.read_only), hidden: Boolean(spec.hidden), exposed: Boolean(spec.exposed),
    required: Boolean(spec.required), defaultValue: spec.defaultValue,
  }));
  const rank = (name) => (name === 'objectId' ? 0 : ['createdAt', 'updatedAt', 'ACL'].includes(name) ? 2 : 1);
  return fields.sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

/** "Pointer<_User>", "Number" … */
export const typeLabel = (field) => (field.targetClass ? `${field.type}<${field.targetClass}>` : field.type ?? '');

export const isImage = (file) =>
  /^image\//.test(file?.mime_type ?? '') || /\.(png|jpe?g|gif|webp|svg|bmp|avif)$/i.test(file?.name ?? '');
