// Typed value editors, used by the cell editor and the row form. `valueEditor(field, value)` answers
// {element, read(), dirty}: `read()` resolves with the JSON value to write (it may upload a file first) and throws a
// ValueError the dialog shows; `dirty` says whether the user changed anything.
import { api, classPath } from '../api.js';
import { h } from '../dom.js';
import { codecFor, isImage } from '../types.js';
import { sameOriginURL } from './cells.js';

let unique = 0;

export function valueEditor(field, value) {
  const make = EDITORS[field.type] ?? multilineEditor;
  const editor = make(field, value, codecFor(field));
  editor.dirty = false;
  const mark = () => { editor.dirty = true; };
  editor.element.addEventListener('input', mark);
  editor.element.addEventListener('change', mark);
  editor.element.classList.add('editor', `editor-${(field.type ?? 'any').toLowerCase()}`);
  return editor;
}

function textEditor(field, value, codec, { rows = 0, placeholder = '' } = {}) {
  const input = rows
    ? h('textarea', { name: 'value', rows, spellcheck: 'false', value: codec.text(value) })
    : h('input', { type: 'text', name: 'value', autocomplete: 'off', placeholder, value: codec.text(value) });
  return { element: h('div', {}, input), read: async () => codec.parse(input.value), input };
}

const multilineEditor = (field, value, codec) => textEditor(field, value, codec, { rows: 6 });
const stringEditor = (field, value, codec) => textEditor(field, value, codec, { rows: 2 });

function booleanEditor(field, value, codec) {
  const select = h('select', { name: 'value' },
    typeof value === 'boolean' ? null : h('option', { value: '', selected: true }, '—'),
    h('option', { value: 'true', selected: value === true }, 'true'),
    h('option', { value: 'false', selected: value === false }, 'false'));
  return { element: h('div', {}, select), read: async () => codec.parse(select.value) };
}

function geoPointEditor(field, value, codec) {
  const latitude = h('input', { type: 'text', name: 'latitude', placeholder: 'latitude', value: value?.latitude ?? '' });
  const longitude = h('input', { type: 'text', name: 'longitude', placeholder: 'longitude', value: value?.longitude ?? '' });
  return {
    element: h('div', { class: 'pair' }, h('label', {}, 'Latitude ', latitude), h('label', {}, 'Longitude ', longitude)),
    read: async () => codec.parse(`${latitude.value}, ${longitude.value}`),
  };
}

function dateEditor(field, value, codec) {
  const editor = textEditor(field, value, codec, { placeholder: '2024-05-01T12:00:00.000Z' });
  const now = h('button', {
    type: 'button', name: 'now',
    onClick: () => { editor.input.value = new Date().toISOString(); editor.input.dispatchEvent(new Event('input', { bubbles: true })); },
  }, 'now');
  editor.element.append(now, h('small', {}, ' ISO 8601; UTC when no zone is given'));
  return editor;
}

function pointerEditor(field, value, codec) {
  const list = h('datalist', { id: `pick-${++unique}` });
  const editor = textEditor(field, value, codec, { placeholder: `objectId of a ${field.targetClass}` });
  editor.input.setAttribute('list', list.id);
  editor.input.addEventListener('focus', () => fillPicker(list, field.targetClass), { once: true });
  editor.element.prepend(h('span', { class: 'target' }, `${field.targetClass} `));
  editor.element.append(list);
  return editor;
}

/** The latest objects of the target class as suggestions (one page, no count). */
async function fillPicker(list, className) {
  try {
    const reply = await api.get(classPath(className), { limit: 50, order: '-createdAt' });
    list.replaceChildren(...reply.results.map((object) => h('option', { value: object.objectId }, label(object))));
  } catch {
    // suggestions only
  }
}

const label = (object) =>
  Object.entries(object).find(([key, value]) => typeof value === 'string' && !['objectId', 'createdAt', 'updatedAt'].includes(key))?.[1] ?? '';

function relationEditor(field, value, codec) {
  const add = h('input', { type: 'text', name: 'add', placeholder: 'objectId to add' });
  const remove = h('input', { type: 'text', name: 'remove', placeholder: 'objectId to remove' });
  return {
    element: h('div', { class: 'pair' }, h('span', { class: 'target' }, `Relation to ${field.targetClass}`),
      h('label', {}, 'Add ', add), h('label', {}, 'Remove ', remove)),
    async read() {
      const op = add.value.trim() ? 'AddRelation' : 'RemoveRelation';
      return { __op: op, objects: [codec.parse(add.value.trim() || remove.value)] };
    },
  };
}

function fileEditor(field, value, codec) {
  const chooser = h('input', { type: 'file', name: 'file' });
  const current = value ? h('div', { class: 'current-file' },
    isImage(value) && sameOriginURL(value.url) ? h('img', { class: 'preview', src: sameOriginURL(value.url), alt: '' }) : null,
    h('span', {}, codec.label(value))) : null;
  return {
    element: h('div', {}, current, chooser),
    async read() {
      const file = chooser.files[0];
      if (!file) return value ? codec.wire(value) : codec.parse('');
      const uploaded = await api.upload(file);
      return codec.parse(uploaded.objectId);
    },
  };
}

function aclField(field, value) {
  const editor = aclEditor(value);
  return { element: editor.element, read: async () => editor.read() };
}

const EDITORS = {
  String: stringEditor, Number: textEditor, Boolean: booleanEditor, Date: dateEditor, GeoPoint: geoPointEditor,
  Pointer: pointerEditor, Relation: relationEditor, File: fileEditor, Array: multilineEditor, Object: multilineEditor,
  Bytes: multilineEditor, ACL: aclField,
};

/**
 * The ACL editor: public read/write, and rows of (user objectId or role:Name, read, write). `read()` answers the
 * ACL object (rows with neither right are left out).
 */
export function aclEditor(acl = {}) {
  const rows = h('tbody');
  const entry = (who = '', rights = {}) => {
    const name = h('input', { type: 'text', name: 'who', value: who, placeholder: 'user objectId or role:Name', disabled: who === '*' });
    const row = h('tr', { dataset: { who } },
      h('td', {}, who === '*' ? 'Public (*)' : name),
      h('td', {}, h('input', { type: 'checkbox', name: 'read', checked: Boolean(rights.read) })),
      h('td', {}, h('input', { type: 'checkbox', name: 'write', checked: Boolean(rights.write) })),
      h('td', {}, who === '*' ? null : h('button', { type: 'button', name: 'removeEntry', onClick: () => row.remove() }, '×')));
    row.who = () => (who === '*' ? '*' : name.value.trim());
    rows.append(row);
  };
  entry('*', acl?.['*'] ?? {});
  for (const [who, rights] of Object.entries(acl ?? {})) if (who !== '*') entry(who, rights);
  const element = h('div', { class: 'acl' },
    h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Who'), h('th', {}, 'Read'), h('th', {}, 'Write'), h('th'))), rows),
    h('button', { type: 'button', name: 'addEntry', onClick: () => entry() }, '+ User or role'));
  return {
    element,
    read() {
      const result = {};
      for (const row of rows.children) {
        const who = row.who();
        const read = row.querySelector('[name=read]').checked;
        const write = row.querySelector('[name=write]').checked;
        if (!who || (!read && !write)) continue;
        result[who] = { ...(read ? { read: true } : {}), ...(write ? { write: true } : {}) };
      }
      return result;
    },
  };
}
