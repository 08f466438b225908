// Writing objects: the cell editor, the row form (add and clone), deleting selected rows and deleting by filter.
import { api, batch, classPath, count, emptyToUndefined } from '../api.js';
import { confirm, h, modal } from '../dom.js';
import { stringify } from '../json.js';
import { state } from '../state.js';
import { SERVER_KEPT, typeLabel } from '../types.js';
import { aclEditor, valueEditor } from './editors.js';

const DELETE_PAGE = 500;

/** Edits one field of one object; resolves true when it was saved or unset. */
export async function editCell(className, field, row) {
  const editor = valueEditor(field, row[field.name]);
  const save = (value) => api.put(classPath(className, row.objectId), { [field.name]: value });
  const body = h('div', { class: 'cell-editor' },
    h('p', { class: 'what' }, `${className} ${row.objectId} · ${field.name} (${typeLabel(field)})`),
    editor.element);
  setTimeout(() => editor.element.querySelector('input:not([type=checkbox]), textarea, select')?.focus());
  const actions = [{ label: 'Save', name: 'save', primary: true, run: async () => save(await editor.read()) }];
  if (field.type !== 'Relation' && field.name !== 'ACL') {
    actions.push({ label: 'Unset', name: 'unset', danger: true, run: () => save({ __op: 'Delete' }) });
  }
  return Boolean(await modal(`Edit ${field.name}`, body, actions, { wide: ['Object', 'Array', 'ACL', 'String'].includes(field.type) }));
}

/** The form of a new object over the class's fields; `source` (a row) pre-fills it for a clone. */
export async function rowForm(className, source) {
  const fields = state.classes.get(className).fields
    .filter((field) => !SERVER_KEPT.includes(field.name) && field.type !== 'Relation');
  const editors = fields.map((field) => {
    const value = source?.[field.name];
    const editor = field.name === 'ACL' ? aclFormEditor(value) : valueEditor(field, value);
    if (source && value !== undefined) editor.dirty = true;
    return { field, editor };
  });
  const body = h('div', { class: 'row-form' },
    h('p', { class: 'hint' }, 'Fields left untouched are not sent.'),
    editors.map(({ field, editor }) => h('div', { class: 'form-field', dataset: { field: field.name } },
      h('span', { class: 'label' }, field.name, h('small', { class: 'type' }, typeLabel(field))),
      editor.element)));
  const create = async () => {
    const object = {};
    for (const { field, editor } of editors) {
      if (!editor.dirty) continue;
      try {
        object[field.name] = await editor.read();
      } catch (error) {
        throw new Error(`${field.name}: ${error.message}`);
      }
    }
    await api.post(classPath(className), object);
  };
  return Boolean(await modal(source ? `Clone ${source.objectId}` : `New ${className}`, body,
    [{ label: 'Create', name: 'create', primary: true, run: create }], { wide: true }));
}

/** The ACL of a new object: sent only when the user touches it (else the class's default ACL applies). */
function aclFormEditor(value) {
  const editor = aclEditor(value ?? { '*': { read: true, write: true } });
  const result = { element: editor.element, dirty: false, read: async () => editor.read() };
  const mark = () => { result.dirty = true; };
  editor.element.addEventListener('change', mark);
  editor.element.addEventListener('click', (event) => { if (event.target.tagName === 'BUTTON') mark(); });
  return result;
}

/** Deletes objects by id through /batch after a confirmation; resolves true when deleted. */
export async function deleteRows(className, ids) {
  if (!await confirm('Delete objects', `Delete ${ids.length} object${ids.length === 1 ? '' : 's'} of ${className}?`, { label: 'Delete' })) return false;
  await batch(ids.map((id) => ({ method: 'DELETE', path: `/1.1${classPath(className, id)}` })));
  return true;
}

/** Counts what `where` matches, asks, then deletes it a page at a time, telling `progress(text)` how far it got. */
export async function deleteByFilter(className, where, progress = () => {}) {
  const total = await count(className, where);
  const condition = Object.keys(where).length ? stringify(where) : 'no condition: every object';
  if (!total) {
    await modal('Delete by filter', h('p', {}, `No object of ${className} matches ${condition}.`), [], { cancelLabel: 'Close' });
    return false;
  }
  const text = `${total.toLocaleString('en')} object${total === 1 ? '' : 's'} of ${className} match ${condition}. Delete them?`;
  if (!await confirm('Delete by filter', text, { label: `Delete ${total.toLocaleString('en')}`, typed: String(total) })) return false;
  let deleted = 0;
  for (;;) {
    const page = await api.get(classPath(className), { where: emptyToUndefined(where), keys: 'objectId', limit: DELETE_PAGE });
    if (!page.results.length) break;
    await batch(page.results.map((object) => ({ method: 'DELETE', path: `/1.1${classPath(className, object.objectId)}` })));
    deleted += page.results.length;
    progress(`Deleted ${deleted.toLocaleString('en')} of ${total.toLocaleString('en')}…`);
    if (deleted > total * 2) break; // objects keep arriving: stop rather than chase them
  }
  progress(`Deleted ${deleted.toLocaleString('en')} object${deleted === 1 ? '' : 's'}.`);
  return true;
}
