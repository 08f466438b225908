// How a value looks in a table cell: text from the type codec, plus links for pointers, relations and files.
import { h } from '../dom.js';
import { href } from '../router.js';
import { codecFor, isImage } from '../types.js';

export function cellContent(value, field, row, className) {
  if (value === undefined) return h('span', { class: 'unset' });
  const codec = codecFor(field);
  if (value === null) return h('span', { class: 'null' }, 'null');
  if (value?.__type === 'Pointer') {
    return h('a', { class: 'pointer', href: href('class', value.className, { where: { objectId: value.objectId } }) },
      codec.label(value));
  }
  if (field.type === 'Relation' || value?.__type === 'Relation') {
    const where = { $relatedTo: { object: { __type: 'Pointer', className, objectId: row.objectId }, key: field.name } };
    return h('a', { class: 'relation', href: href('class', value?.className ?? field.targetClass, { where }) },
      `browse ${value?.className ?? field.targetClass}`);
  }
  if (value?.__type === 'File') return fileContent(value, codec);
  if (field.type === 'Boolean') return h('span', { class: `bool ${value}` }, codec.label(value));
  return h('span', { class: 'value', title: field.type === 'String' ? null : codec.label(value) }, codec.label(value));
}

function fileContent(file, codec) {
  const sameOrigin = sameOriginURL(file.url);
  return h('span', { class: 'file' },
    sameOrigin && isImage(file) ? h('img', { class: 'thumb', src: sameOrigin, alt: '' }) : null,
    webURL(file.url) ? h('a', { href: webURL(file.url), target: '_blank', rel: 'noopener noreferrer' }, codec.label(file)) : codec.label(file));
}

/** The URL when it is an http or https one (a file's URL is data: never a javascript: or data: link), else null. */
export function webURL(url) {
  try {
    const parsed = new URL(url, location.href);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** The URL when it is on the console's own origin (the only images the page's CSP lets it show), else null. */
export function sameOriginURL(url) {
  try {
    const parsed = new URL(url, location.href);
    return parsed.origin === location.origin ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * A table of objects for the screens other than the browser (users, roles, files, CQL results): `columns` are fields
 * ({name, type, targetClass}) with an optional `label` and `content(row)` in place of the cell's usual content;
 * `actions(row)` gives a last cell of buttons; the row whose objectId is `current` is highlighted.
 */
export function resultsTable(rows, columns, { className, actions, current, empty = 'No objects.' } = {}) {
  const head = h('tr', {}, columns.map((field) => h('th', { dataset: { field: field.name } },
    h('span', { class: 'name' }, field.label ?? field.name))), actions ? h('th', { class: 'actions' }) : null);
  const body = rows.map((row) => h('tr', { dataset: { id: row.objectId ?? '' }, class: current && row.objectId === current ? 'current' : null },
    columns.map((field) => h('td', { dataset: { field: field.name }, class: `t-${(field.type ?? 'any').toLowerCase()}` },
      field.content ? field.content(row) : cellContent(row[field.name], field, row, className))),
    actions ? h('td', { class: 'actions' }, actions(row)) : null));
  if (!rows.length) body.push(h('tr', {}, h('td', { class: 'empty', colspan: columns.length + (actions ? 1 : 0) }, empty)));
  return h('table', { class: 'data results' }, h('thead', {}, head), h('tbody', {}, body));
}

/** The columns of rows of one class: the schema's fields that occur (in the schema's order), then any others. */
export function columnsOf(rows, fields = []) {
  const present = new Set(rows.flatMap((row) => Object.keys(row)));
  const known = fields.filter((field) => present.has(field.name));
  const others = [...present].filter((name) => !known.some((field) => field.name === name))
    .sort((a, b) => (b === 'objectId') - (a === 'objectId') || a.localeCompare(b))
    .map((name) => ({ name, type: ['createdAt', 'updatedAt'].includes(name) ? 'Date' : undefined }));
  return [...known, ...others];
}
