// The schema of one class: its columns with their flags (read-only, hidden, required, a default value), adding and
// dropping columns, the indexes with a query plan ("explain"), class-level permissions, the default ACL of new
// objects, and dropping the class. Read-only for viewers.
import { api, classPath } from '../api.js';
import { confirm, h, message, modal, replace, statusLine } from '../dom.js';
import { parse as parseJSON, stringify } from '../json.js';
import { state } from '../state.js';
import { aclLabel, BUILT_IN, codecFor, TYPES, typeLabel } from '../types.js';
import { aclEditor, valueEditor } from './editors.js';

const OPERATIONS = ['get', 'find', 'create', 'update', 'delete', 'add_fields'];
/**
 * The column flags the schema API records, as [wire name, label, property of a fieldList field]: LeanCloud's
 * read_only and hidden, required (LeanCloud's console flag, Parse's required), and exposed for _User's personal
 * fields. The default value (defaultValue) is edited apart, with the column's editor.
 */
const FLAGS = [['read_only', 'read-only', 'readOnly'], ['hidden', 'hidden', 'hidden'], ['required', 'required', 'required']];
const EXPOSABLE = { _User: ['email', 'mobilePhoneNumber'] };
/** Types without a default value (a relation has no value of its own). */
const NO_DEFAULT = ['Relation', 'ACL'];
/** What the last change did, shown by the redrawn screen. */
let notice = '';

export function schemaView(className, { refreshClasses, render }) {
  const schema = state.classes.get(className);
  const error = statusLine();
  const done = statusLine('notice');
  done.show(notice);
  notice = '';
  const path = `/schemas/${encodeURIComponent(className)}`;
  const editable = state.canEdit;

  /** Sends a change (its error is thrown), then reloads the classes and redraws the screen. */
  async function apply(body, what) {
    await api.put(path, body);
    notice = what;
    await refreshClasses();
    render();
  }

  /** apply(), its error shown on the screen; `body` may be an async function answering it (its error shown too). */
  async function change(body, what) {
    error.show('');
    done.show('');
    try {
      await apply(typeof body === 'function' ? await body() : body, what);
    } catch (failure) {
      error.show(message(failure));
    }
  }

  const sections = [
    h('section', {}, h('h3', {}, 'Columns'), columnsTable(className, editable, change, apply), editable ? addColumnForm(change) : null),
    h('section', { class: 'indexes' }, h('h3', {}, 'Indexes'), indexesTable(schema.indexes, editable, change),
      editable ? addIndexForm(change) : null, explainBox(className)),
    h('section', {}, h('h3', {}, 'Class permissions'), permissionsEditor(schema.permissions, editable, change)),
    h('section', {}, h('h3', {}, 'Default ACL of new objects'), defaultACLEditor(schema.defaultACL, editable, change)),
    editable ? dropClassSection(className, async () => {
      await api.delete(path);
      await refreshClasses();
      location.hash = '';
    }, error) : null,
  ];
  return h('div', { class: 'schema' }, error, done, sections);
}

/** The flags a field can carry. */
const flagsOf = (className, field) =>
  (EXPOSABLE[className]?.includes(field.name) ? [...FLAGS, ['exposed', 'exposed', 'exposed']] : FLAGS);

function columnsTable(className, editable, change, apply) {
  const row = (field) => {
    const builtIn = BUILT_IN.includes(field.name);
    const flags = flagsOf(className, field);
    // The schema API replaces a field's flags together (a flag left out is taken back): send them all, the default
    // value included.
    const current = Object.fromEntries(flags.map(([flag, , property]) => [flag, field[property]]));
    if (field.defaultValue !== undefined) current.defaultValue = field.defaultValue;
    const flagBox = ([flag, label, property]) => h('label', {}, h('input', {
      type: 'checkbox', name: flag, checked: field[property], disabled: !editable,
      onChange: (event) => change({ fields: { [field.name]: { ...current, [flag]: event.target.checked } } },
        `${field.name}: ${label} ${event.target.checked ? 'on' : 'off'}.`),
    }), ` ${label}`);
    const drop = async () => {
      const text = `Drop ${field.name}? Its values are removed from every object of ${className}.`;
      if (await confirm('Drop column', text, { label: 'Drop', typed: field.name })) {
        await change({ fields: { [field.name]: { __op: 'Delete' } } }, `${field.name} dropped.`);
      }
    };
    const hasDefault = field.defaultValue !== undefined;
    const defaultCell = builtIn || NO_DEFAULT.includes(field.type) ? null : [
      h('span', { class: 'default-value' }, hasDefault ? codecFor(field).label(field.defaultValue) : ''),
      editable ? h('button', { type: 'button', name: 'editDefault', onClick: () => editDefault(field, current, apply) },
        hasDefault ? 'Change…' : 'Set…') : null,
    ];
    return h('tr', { dataset: { field: field.name } },
      h('td', { class: 'name' }, field.name),
      h('td', {}, typeLabel(field)),
      h('td', { class: 'flags' }, builtIn ? null : flags.map(flagBox)),
      h('td', { class: 'default' }, defaultCell),
      h('td', {}, editable && !builtIn ? h('button', { type: 'button', name: 'dropColumn', class: 'danger', onClick: drop }, 'Drop') : null));
  };
  return h('table', { class: 'columns-table' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Column'), h('th', {}, 'Type'), h('th', {}, 'Flags'), h('th', {}, 'Default'), h('th'))),
    h('tbody', {}, state.classes.get(className).fields.map(row)));
}

/** The default of a column, typed with the column's editor; "Clear" takes it back (the server's error stays in the dialog). */
async function editDefault(field, current, apply) {
  const editor = valueEditor(field, field.defaultValue);
  const { defaultValue: _, ...without } = current;
  const body = h('div', { class: 'fields' },
    h('p', {}, `Objects of this class created without ${field.name} get this value.`), editor.element);
  const actions = [{
    label: 'Save default', name: 'saveDefault', primary: true,
    run: async () => apply({ fields: { [field.name]: { ...without, defaultValue: await editor.read() } } }, `${field.name}: default set.`),
  }];
  if (field.defaultValue !== undefined) {
    // A change keeps the flags it does not name: `{"defaultValue": null}` takes the default back.
    actions.push({ label: 'Clear default', name: 'clearDefault', run: () => apply({ fields: { [field.name]: { ...without, defaultValue: null } } }, `${field.name}: default cleared.`) });
  }
  await modal(`Default of ${field.name}`, body, actions, { wide: true });
}

/** The class's indexes ({name: {"field.path": 1}}), each but _id_ with a Drop button. */
function indexesTable(indexes, editable, change) {
  const rows = Object.entries(indexes ?? {}).map(([name, keys]) => h('tr', { dataset: { index: name } },
    h('td', { class: 'name' }, name),
    h('td', { class: 'keys' }, Object.entries(keys).map(([key, direction]) => `${key} ${Number(direction) < 0 ? '↓' : '↑'}`).join(', ')),
    h('td', {}, editable && name !== '_id_' ? h('button', {
      type: 'button', name: 'dropIndex', class: 'danger',
      onClick: async () => {
        if (await confirm('Drop index', `Drop the index ${name}?`, { label: 'Drop' })) {
          await change({ indexes: { [name]: { __op: 'Delete' } } }, `Index ${name} dropped.`);
        }
      },
    }, 'Drop') : null)));
  if (!rows.length) rows.push(h('tr', {}, h('td', { class: 'empty', colspan: 3 }, 'No indexes.')));
  return h('table', { class: 'columns-table indexes-table' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Index'), h('th', {}, 'Fields'), h('th'))), h('tbody', {}, rows));
}

function addIndexForm(change) {
  const field = h('input', { type: 'text', name: 'indexField', placeholder: 'field or field.path', autocomplete: 'off', required: true });
  const direction = h('select', { name: 'indexDirection' }, h('option', { value: '1' }, 'ascending'), h('option', { value: '-1' }, 'descending'));
  return h('form', {
    class: 'add-index',
    onSubmit: (event) => {
      event.preventDefault();
      const key = field.value.trim();
      const name = `${key.replace(/[^A-Za-z0-9]+/g, '_')}_${direction.value === '-1' ? '-1' : '1'}`;
      change({ indexes: { [name]: { [key]: Number(direction.value) } } }, `Index ${name} added.`);
    },
  }, h('strong', {}, 'Add an index '), field, direction, h('button', { type: 'submit', name: 'addIndex', class: 'primary' }, 'Add index'));
}

/** SQLite's "SCAN <table>" without an index, or PostgreSQL's "Seq Scan": the whole table is read. */
export const isFullScan = (line) =>
  /Seq Scan/.test(line) || (/(^|[^A-Za-z])SCAN (?!CONSTANT ROW)/.test(line) && !/USING (COVERING )?INDEX/.test(line));

/**
 * SQLite's "SCAN <table> USING INDEX …": every entry of the index, in its order, until the page is full. Fast for an
 * order with no condition the index cannot serve; with one that few objects meet, close to the whole table.
 */
export const isIndexWalk = (line) => /(^|[^A-Za-z])SCAN \S+ USING (COVERING )?INDEX/.test(line);

/** How a plan line is marked: {class, title} or {}. */
export function planMark(line) {
  if (isFullScan(line)) return { class: 'full-scan', title: 'The whole table is read' };
  if (isIndexWalk(line)) {
    return { class: 'index-walk', title: 'The index is read in order until the page is full: the whole table when few objects match' };
  }
  return {};
}

/** A `where` (JSON) and an order, and the plan the store would run for that find. */
function explainBox(className) {
  const where = h('textarea', { name: 'explainWhere', rows: 3, spellcheck: 'false', placeholder: '{"title": "Dune"}' });
  const order = h('input', { type: 'text', name: 'explainOrder', placeholder: 'order, e.g. -createdAt', autocomplete: 'off' });
  const error = statusLine();
  const plan = h('ol', { class: 'plan', hidden: true });
  const run = async (event) => {
    event.preventDefault();
    error.show('');
    let condition;
    try {
      condition = where.value.trim() ? parseJSON(where.value) : undefined;
    } catch (failure) {
      error.show(`The where is not JSON: ${message(failure)}`);
      return;
    }
    try {
      const reply = await api.get(classPath(className), { explain: 'true', where: condition, order: order.value.trim() || undefined });
      const lines = (reply.plan ?? []).map((line) => (typeof line === 'string' ? line : stringify(line)));
      replace(plan, lines.map((line) => h('li', planMark(line), line)));
      plan.hidden = false;
    } catch (failure) {
      plan.hidden = true;
      error.show(message(failure));
    }
  };
  return h('form', { class: 'explain', onSubmit: run },
    h('h4', {}, 'Explain a query'),
    h('label', {}, 'where ', where), order, h('button', { type: 'submit', name: 'explain' }, 'Explain'),
    h('p', { class: 'hint' }, 'Highlighted steps read the whole table: an index on the condition\'s field avoids that.'),
    error, plan);
}

function dropClassSection(className, drop, error) {
  return h('section', { class: 'danger-zone' }, h('h3', {}, 'Drop the class'),
    h('p', {}, 'Only a class without objects can be dropped; system classes cannot.'),
    h('button', {
      type: 'button', name: 'dropClass', class: 'danger',
      onClick: async () => {
        if (!await confirm('Drop class', `Drop the class ${className}?`, { label: 'Drop class', typed: className })) return;
        try {
          await drop();
        } catch (failure) {
          error.show(message(failure));
        }
      },
    }, `Drop ${className}…`));
}


function addColumnForm(change) {
  const name = h('input', { type: 'text', name: 'columnName', placeholder: 'name', autocomplete: 'off', required: true });
  const type = h('select', { name: 'columnType' }, TYPES.map((value) => h('option', { value }, value)));
  const target = h('input', { type: 'text', name: 'targetClass', placeholder: 'target class', autocomplete: 'off', hidden: true });
  const targets = h('datalist', { id: 'target-classes' }, [...state.classes.keys()].map((value) => h('option', { value })));
  target.setAttribute('list', targets.id);
  const flags = FLAGS.map(([flag, label]) => h('label', {}, h('input', { type: 'checkbox', name: flag }), ` ${label}`));
  // The default, typed with the editor of the chosen type (a pointer's target read when the form is sent).
  const field = { name: 'default', get type() { return type.value; }, get targetClass() { return target.value.trim(); } };
  const withDefault = h('input', { type: 'checkbox', name: 'withDefault' });
  const holder = h('div', { class: 'new-default', hidden: true });
  let editor = null;
  const sync = () => {
    target.hidden = !['Pointer', 'Relation'].includes(type.value);
    const possible = !NO_DEFAULT.includes(type.value);
    withDefault.parentElement.hidden = !possible;
    holder.hidden = !possible || !withDefault.checked;
    editor = holder.hidden ? null : valueEditor({ name: field.name, type: field.type, get targetClass() { return field.targetClass; } });
    replace(holder, editor?.element);
  };
  type.addEventListener('change', sync);
  withDefault.addEventListener('change', sync);
  const form = h('form', {
    class: 'add-column',
    onSubmit: (event) => {
      event.preventDefault();
      const column = name.value.trim();
      change(async () => {
        const spec = { type: type.value };
        if (!target.hidden) spec.targetClass = target.value.trim();
        for (const label of flags) {
          const box = label.querySelector('input');
          if (box.checked) spec[box.name] = true;
        }
        if (editor) spec.defaultValue = await editor.read();
        return { fields: { [column]: spec } };
      }, `${column} added.`);
    },
  }, h('strong', {}, 'Add a column '), name, type, target, targets, flags,
  h('label', {}, withDefault, ' default'), h('button', { type: 'submit', name: 'addColumn', class: 'primary' }, 'Add column'), holder);
  sync();
  return form;
}

/** A row per operation: everyone, signed-in users, or only the listed roles and users (none: the master key only). */
function permissionsEditor(permissions, editable, change) {
  const rows = OPERATIONS.map((operation) => {
    const rule = permissions[operation] ?? permissions[operation === 'add_fields' ? 'addField' : operation] ?? { '*': true };
    const who = rule['*'] ? 'everyone' : rule.onlySignInUsers || rule.requiresAuthentication ? 'signedIn' : 'listed';
    const mode = h('select', { name: 'who', disabled: !editable },
      [['everyone', 'everyone'], ['signedIn', 'signed-in users'], ['listed', 'only these roles and users']]
        .map(([value, label]) => h('option', { value, selected: value === who }, label)));
    const roles = h('input', { type: 'text', name: 'roles', placeholder: 'roles: Admins, Editors', value: (rule.roles ?? []).join(', '), disabled: !editable });
    const users = h('input', { type: 'text', name: 'users', placeholder: 'user objectIds', value: (rule.users ?? []).join(', '), disabled: !editable });
    const sync = () => { roles.hidden = users.hidden = mode.value !== 'listed'; };
    mode.addEventListener('change', sync);
    sync();
    const row = h('tr', { dataset: { operation } }, h('th', {}, operation), h('td', {}, mode), h('td', {}, roles), h('td', {}, users));
    row.rule = () => {
      if (mode.value === 'everyone') return { '*': true };
      if (mode.value === 'signedIn') return { onlySignInUsers: true };
      return { roles: names(roles.value), users: names(users.value) };
    };
    return row;
  });
  const table = h('table', { class: 'permissions' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Operation'), h('th', {}, 'Granted to'), h('th', {}, 'Roles'), h('th', {}, 'Users'))),
    h('tbody', {}, rows));
  const save = editable ? h('button', {
    type: 'button', name: 'savePermissions', class: 'primary',
    onClick: () => change({ classLevelPermissions: Object.fromEntries(rows.map((row) => [row.dataset.operation, row.rule()])) },
      'Class permissions saved.'),
  }, 'Save permissions') : null;
  return h('div', {}, table,
    h('p', { class: 'hint' }, 'Only these roles and users with both lists empty: the master key only.'), save);
}

const names = (text) => text.split(',').map((name) => name.trim()).filter(Boolean);

function defaultACLEditor(acl, editable, change) {
  if (!editable) return h('p', {}, acl ? aclLabel(acl) : 'None: new objects are public unless they carry an ACL.');
  const editor = aclEditor(acl ?? {});
  return h('div', {}, h('p', { class: 'hint' }, acl ? '' : 'None set: objects created without an ACL are public.'), editor.element,
    h('button', { type: 'button', name: 'saveDefaultACL', class: 'primary', onClick: () => change({ defaultACL: editor.read() }, 'Default ACL saved.') }, 'Save default ACL'),
    acl ? h('button', { type: 'button', name: 'removeDefaultACL', onClick: () => change({ defaultACL: null }, 'Default ACL removed.') }, 'Remove') : null);
}
