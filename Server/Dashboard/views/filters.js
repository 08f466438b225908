// The filter builder: rows of (field or dot path, operator, value) that make a `where`, and the `where` itself as
// JSON, to copy or to edit by hand.
import { copyText, h, message, statusLine } from '../dom.js';
import { parse, stringify, isPlainObject } from '../json.js';
import { typeLabel } from '../types.js';
import { combine, condition, OPERATORS, takesValue } from '../where.js';

let unique = 0;
/** The rows that built each class's current filter, so that they come back with it. */
const remembered = new Map();

/** `apply(where)` is called with the new condition. */
export function filterPanel(schema, where, apply) {
  const fieldsList = h('datalist', { id: `fields-${++unique}` },
    schema.fields.map((field) => h('option', { value: field.name }, field.type)));
  const rows = h('div', { class: 'filter-rows' });
  const error = statusLine();
  const whereText = h('textarea', { name: 'where', rows: 2, spellcheck: 'false', value: stringify(where) });

  function addRow(saved = {}) {
    const path = h('input', { type: 'text', name: 'field', placeholder: 'field or a.dot.path', autocomplete: 'off', value: saved.path ?? '' });
    path.setAttribute('list', fieldsList.id);
    const op = h('select', { name: 'op' }, OPERATORS.map(([value, label]) => h('option', { value, selected: value === saved.op }, label)));
    const value = h('input', { type: 'text', name: 'value', autocomplete: 'off', placeholder: 'value', value: saved.value ?? '' });
    const hint = h('small', { class: 'hint' });
    const update = () => {
      value.hidden = !takesValue(op.value);
      const field = fieldOf(path.value);
      hint.textContent = field ? typeLabel(field) : '';
      value.placeholder = ['in', 'nin'].includes(op.value) ? 'a, b, c  or  [JSON]'
        : field?.type === 'Pointer' ? 'objectId' : field?.type === 'Date' ? '2024-05-01T00:00:00Z' : 'value';
    };
    path.addEventListener('input', update);
    op.addEventListener('change', update);
    const row = h('div', { class: 'filter-row' }, path, op, value, hint,
      h('button', { type: 'button', name: 'removeCondition', title: 'Remove', onClick: () => row.remove() }, '×'));
    row.condition = () => condition(path.value, op.value, value.value, fieldOf(path.value));
    row.saved = () => ({ path: path.value, op: op.value, value: value.value });
    rows.append(row);
    update();
    return path;
  }

  const fieldOf = (path) => schema.fields.find((field) => field.name === path.trim());

  function build() {
    error.show('');
    try {
      const conditions = [...rows.children].map((row) => row.condition());
      const built = conditions.length ? combine(conditions) : {};
      whereText.value = stringify(built);
      remembered.set(schema.className, { where: stringify(built), rows: [...rows.children].map((row) => row.saved()) });
      apply(built);
    } catch (failure) {
      error.show(message(failure));
    }
  }

  function applyJSON() {
    error.show('');
    try {
      const text = whereText.value.trim();
      const typed = text ? parse(text) : {};
      if (!isPlainObject(typed)) throw new Error('A where is a JSON object.');
      apply(typed);
    } catch (failure) {
      error.show(`Invalid where: ${message(failure)}`);
    }
  }

  const saved = remembered.get(schema.className);
  if (saved?.where === stringify(where)) for (const row of saved.rows) addRow(row);

  return h('div', { class: 'filters' },
    fieldsList, rows,
    h('div', { class: 'filter-actions' },
      h('button', { type: 'button', name: 'addCondition', onClick: () => addRow().focus() }, '+ Condition'),
      h('button', { type: 'button', name: 'applyFilter', class: 'primary', onClick: build }, 'Apply filter'),
      h('button', { type: 'button', name: 'clearFilter', onClick: () => apply({}) }, 'Clear')),
    error,
    h('label', { class: 'where' }, 'where ', whereText),
    h('div', { class: 'filter-actions' },
      h('button', { type: 'button', name: 'copyWhere', onClick: () => copyText(whereText.value, whereText) }, 'Copy'),
      h('button', { type: 'button', name: 'applyWhere', onClick: applyJSON }, 'Apply JSON')));
}
