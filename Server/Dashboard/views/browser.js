// The data browser of one class: a page of objects as a table (a column per schema field), sorting, column choice,
// keyset paging, the filter builder, and the row actions of administrators.
import { api, classPath, count } from '../api.js';
import { append, h, message, replace, statusLine } from '../dom.js';
import { follow } from '../live.js';
import { go, href } from '../router.js';
import { state } from '../state.js';
import { SERVER_KEPT, typeLabel } from '../types.js';
import { DEFAULT_ORDER } from '../where.js';
import { cellContent } from './cells.js';
import { filterPanel } from './filters.js';
import { pager } from './pager.js';
import { deleteByFilter, deleteRows, editCell, rowForm } from './rows.js';

/** Columns hidden per class, for the page's lifetime. */
const hiddenColumns = new Map();
const UNSORTABLE = new Set(['Relation', 'ACL']);

export function browserView(className, route) {
  const schema = state.classes.get(className);
  const view = {
    where: route.where ?? {}, order: route.order ?? DEFAULT_ORDER, selected: new Set(),
  };
  if (!hiddenColumns.has(className)) hiddenColumns.set(className, new Set());
  const hidden = hiddenColumns.get(className);
  const error = statusLine();
  const notice = statusLine('notice');
  const progress = statusLine('notice');
  const table = h('table', { class: 'data' });
  const columns = () => schema.fields.filter((field) => !hidden.has(field.name));
  const root = h('div', { class: 'browser', dataset: { state: 'loading' } });

  const pages = pager(className, {
    query: () => ({ where: view.where, order: view.order, returnACL: true }),
    draw: () => {
      view.selected.clear();
      created = 0;
      renderTable();
      showCreated();
    },
    error, notice, root,
  });
  const load = () => pages.load();

  // Live: changes committed since the page was read (by anyone, on any instance) show without a refresh.
  let created = 0;
  const liveState = h('span', { class: 'live', dataset: { live: 'connecting' }, title: 'Changes show as they happen' });
  const createdLine = h('p', { class: 'notice created', hidden: true });
  function showCreated() {
    createdLine.hidden = !created;
    replace(createdLine, `${created.toLocaleString('en')} new object${created === 1 ? '' : 's'} since this page was read. `,
      h('button', { type: 'button', name: 'showCreated', onClick: load }, 'Show'));
  }
  function changed({ kind, objectId }) {
    if (!root.isConnected) return;
    const tr = table.querySelector(`tbody tr[data-id="${CSS.escape(objectId)}"]`);
    if (kind === 'created') {
      created += 1;
      showCreated();
    } else if (kind === 'updated' && tr) {
      reloadRow(objectId, true);
    } else if (kind === 'deleted' && tr) {
      tr.classList.add('gone');
      tr.title = 'Deleted since this page was read';
    } else if (kind === 'classDeleted') {
      error.show(`${className} was deleted.`);
    }
  }
  follow(className, changed, (live) => {
    liveState.dataset.live = live;
    liveState.textContent = live === 'live' ? '● live' : live === 'reconnecting' ? '○ reconnecting' : '○ not live';
  });

  function renderTable() {
    const head = h('tr', {},
      state.canEdit ? h('th', { class: 'select' }, h('input', {
        type: 'checkbox', name: 'selectAll', title: 'Select the page',
        onChange: (event) => {
          for (const box of table.querySelectorAll('tbody input[name=select]')) box.checked = event.target.checked;
          view.selected = new Set(event.target.checked ? pages.rows.map((row) => row.objectId) : []);
        },
      })) : null,
      columns().map(headerCell));
    replace(table, h('thead', {}, head), h('tbody', {}, pages.rows.map(rowElement)));
    if (!pages.rows.length) table.append(h('tbody', {}, h('tr', {}, h('td', { class: 'empty', colspan: columns().length + 1 }, 'No objects.'))));
  }

  function headerCell(field) {
    const sorted = view.order === field.name ? '▲' : view.order === `-${field.name}` ? '▼' : '';
    const title = h('span', { class: 'name' }, field.name);
    const type = h('small', { class: 'type' }, typeLabel(field));
    if (UNSORTABLE.has(field.type)) return h('th', { dataset: { field: field.name } }, title, type);
    const next = view.order === field.name ? `-${field.name}` : view.order === `-${field.name}` ? DEFAULT_ORDER : field.name;
    return h('th', { dataset: { field: field.name }, class: 'sortable' },
      h('a', { href: href('class', className, { where: view.where, order: next }), class: 'sort', title: 'Sort' },
        title, sorted ? h('span', { class: 'arrow' }, sorted) : null),
      type);
  }

  function rowElement(row) {
    const tr = h('tr', { dataset: { id: row.objectId } });
    if (state.canEdit) {
      tr.append(h('td', { class: 'select' }, h('input', {
        type: 'checkbox', name: 'select', checked: view.selected.has(row.objectId),
        onChange: (event) => { view.selected[event.target.checked ? 'add' : 'delete'](row.objectId); },
      })));
    }
    for (const field of columns()) tr.append(cell(row, field));
    return tr;
  }

  function cell(row, field) {
    const editable = state.canEdit && !SERVER_KEPT.includes(field.name);
    const td = h('td', { dataset: { field: field.name }, class: `t-${(field.type ?? 'any').toLowerCase()}`, tabindex: editable ? 0 : null },
      cellContent(row[field.name], field, row, className));
    if (editable) {
      const edit = async () => {
        if (await editCell(className, field, row)) await reloadRow(row.objectId);
      };
      td.addEventListener('dblclick', (event) => { if (!event.target.closest('a, button')) edit(); });
      td.addEventListener('keydown', (event) => { if (event.key === 'Enter' && event.target === td) edit(); });
      td.append(h('button', { type: 'button', class: 'cell-edit', name: 'editCell', title: `Edit ${field.name}`, onClick: edit }, '✎'));
    }
    return td;
  }

  async function reloadRow(id, flash = false) {
    try {
      const reply = await api.get(classPath(className), { where: { objectId: id }, limit: 1, returnACL: true });
      const index = pages.rows.findIndex((row) => row.objectId === id);
      if (index < 0 || !reply.results[0]) return;
      pages.rows[index] = reply.results[0];
      const tr = rowElement(pages.rows[index]);
      if (flash) tr.classList.add('changed');
      table.querySelector(`tbody tr[data-id="${CSS.escape(id)}"]`)?.replaceWith(tr);
    } catch (failure) {
      error.show(message(failure));
    }
  }

  const matching = h('span', { class: 'matching' });
  const countButton = h('button', {
    type: 'button', name: 'countMatching',
    onClick: async () => {
      matching.textContent = '…';
      try {
        matching.textContent = `${(await count(className, view.where)).toLocaleString('en')} matching`;
      } catch (failure) {
        matching.textContent = '';
        error.show(message(failure));
      }
    },
  }, 'Count');

  /** A toolbar button whose action reloads the page when it answers true; its errors are shown. */
  const action = (name, label, run, className = '') => h('button', {
    type: 'button', name, class: className,
    onClick: async () => {
      progress.show('');
      try {
        if (await run()) await load();
      } catch (failure) {
        error.show(message(failure));
      }
    },
  }, label);
  const selectedRows = () => pages.rows.filter((row) => view.selected.has(row.objectId));
  const editing = state.canEdit ? [
    action('addRow', '+ Row', () => rowForm(className)),
    action('cloneRow', 'Clone', () => {
      const [source, ...more] = selectedRows();
      if (!source || more.length) throw new Error('Select one row to clone.');
      return rowForm(className, source);
    }),
    action('deleteRows', 'Delete selected', () => {
      if (!view.selected.size) throw new Error('Select the rows to delete.');
      return deleteRows(className, [...view.selected]);
    }, 'danger'),
    action('deleteByFilter', 'Delete by filter…', () => deleteByFilter(className, view.where, progress.show), 'danger'),
  ] : [];

  const chooser = columnChooser(schema.fields, hidden, renderTable);
  const filters = filterPanel(schema, view.where, (where) => go('class', className, { where, order: route.order }));
  const toolbar = h('div', { class: 'toolbar' },
    h('button', { type: 'button', name: 'toggleFilter', onClick: () => { filters.hidden = !filters.hidden; } }, 'Filter'),
    chooser, action('refresh', 'Refresh', () => true), countButton, matching, liveState,
    h('span', { class: 'spacer' }), editing);
  filters.hidden = !Object.keys(view.where).length;

  load();
  return append(root, [toolbar, filters, error, notice, createdLine, progress, h('div', { class: 'table-wrap' }, table), pages.element]);
}

/** The column chooser: a checkbox per field; `changed()` redraws the table. */
function columnChooser(fields, hidden, changed) {
  return h('details', { class: 'columns' }, h('summary', {}, 'Columns'),
    h('div', { class: 'menu' }, fields.map((field) => h('label', {},
      h('input', {
        type: 'checkbox', name: 'column', value: field.name, checked: !hidden.has(field.name),
        onChange: (event) => { hidden[event.target.checked ? 'delete' : 'add'](field.name); changed(); },
      }), ` ${field.name}`))));
}
