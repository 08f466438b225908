// The CQL console (GET /cloudQuery, results as a table with the browser's cells) and the REST console (any method
// and path below /1.1, with the master key's rights through the console's API; viewers may only GET).
import { api } from '../api.js';
import { h, message, replace, statusLine } from '../dom.js';
import { parse, stringify } from '../json.js';
import { state } from '../state.js';
import { columnsOf, resultsTable } from './cells.js';

/** The last statement and request, kept while the page lives. */
const remembered = { cql: '', method: 'GET', path: '/classes/', body: '{\n  \n}' };

export function consoleView() {
  return h('div', { class: 'console screen' }, cqlConsole(), restConsole());
}

function cqlConsole() {
  const error = statusLine();
  const summary = h('p', { class: 'summary' });
  const output = h('div', { class: 'table-wrap', hidden: true });
  const statement = h('textarea', {
    name: 'cql', rows: 3, spellcheck: 'false', value: remembered.cql,
    placeholder: state.canEdit ? 'select * from Post where pubUser = "LeanCloud官方客服" limit 10' : 'select * from Post limit 10 (viewers: select only)',
  });
  const root = h('section', { class: 'cql', dataset: { state: 'ready' } });
  const run = h('button', { type: 'submit', name: 'runCql', class: 'primary' }, 'Run');

  async function execute() {
    remembered.cql = statement.value;
    error.show('');
    summary.textContent = '';
    output.hidden = true;
    if (!statement.value.trim()) { error.show('Type a CQL statement.'); return; }
    root.dataset.state = 'loading';
    run.disabled = true;
    try {
      show(await api.get('/cloudQuery', { cql: statement.value }));
    } catch (failure) {
      error.show(message(failure));
    } finally {
      run.disabled = false;
      root.dataset.state = 'ready';
    }
  }

  function show(reply) {
    const rows = Array.isArray(reply?.results) ? reply.results : null;
    const parts = [];
    if (reply?.count !== undefined) parts.push(`count: ${reply.count}`);
    if (rows) parts.push(`${rows.length} row${rows.length === 1 ? '' : 's'}${reply.className ? ` of ${reply.className}` : ''}`);
    summary.textContent = parts.join(' · ');
    if (rows && (rows.length || reply.count === undefined)) {
      const fields = state.classes.get(reply.className)?.fields ?? [];
      replace(output, resultsTable(rows, columnsOf(rows, fields), { className: reply.className, empty: 'No rows.' }));
    } else if (!rows) {
      replace(output, h('pre', { class: 'json' }, stringify(reply, '  ')));
    } else {
      return;
    }
    output.hidden = false;
  }

  statement.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) { event.preventDefault(); execute(); }
  });
  const form = h('form', { onSubmit: (event) => { event.preventDefault(); execute(); } },
    statement, h('div', { class: 'toolbar' }, run, h('small', {}, 'Ctrl+Enter runs the statement.')));
  return replace(root, h('h3', {}, 'CQL'), form, error, summary, output);
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];

/** The path below /1.1 the console may send to: the typed path without an origin or /1.1, never outside the API. */
export function apiPath(text) {
  let path = text.trim().replace(/^https?:\/\/[^/]+/i, '').replace(/^\/?1\.1(?=\/|$)/, '');
  if (!path.startsWith('/')) path = `/${path}`;
  const resolved = new URL(`/dashboard/api/1.1${path}`, location.origin);
  if (!resolved.pathname.startsWith('/dashboard/api/1.1/') || path === '/') {
    throw new Error('The path is a path of the REST API below /1.1, such as /classes/Post?limit=10.');
  }
  return path;
}

function restConsole() {
  const methods = state.canEdit ? METHODS : ['GET'];
  const method = h('select', { name: 'method' }, methods.map((name) => h('option', { value: name, selected: name === remembered.method }, name)));
  const path = h('input', { type: 'text', name: 'restPath', autocomplete: 'off', value: remembered.path, placeholder: '/classes/Post?limit=10' });
  const body = h('textarea', { name: 'restBody', rows: 5, spellcheck: 'false', value: remembered.body });
  const bodyField = h('label', { class: 'body' }, 'JSON body', body);
  const error = statusLine();
  const status = h('p', { class: 'rest-status', hidden: true });
  const reply = h('pre', { class: 'json rest-reply', hidden: true });
  const send = h('button', { type: 'submit', name: 'sendRest', class: 'primary' }, 'Send');
  const root = h('section', { class: 'rest', dataset: { state: 'ready' } });
  const sync = () => { bodyField.hidden = !['POST', 'PUT'].includes(method.value); };
  method.addEventListener('change', sync);
  sync();

  async function execute() {
    Object.assign(remembered, { method: method.value, path: path.value, body: body.value });
    error.show('');
    status.hidden = reply.hidden = true;
    let target;
    let json;
    try {
      target = apiPath(path.value);
      if (!bodyField.hidden && body.value.trim()) json = parse(body.value);
    } catch (failure) {
      error.show(failure instanceof SyntaxError ? `Invalid JSON body: ${failure.message}` : message(failure));
      return;
    }
    root.dataset.state = 'loading';
    send.disabled = true;
    try {
      const answer = await api.request(method.value, target, json);
      status.textContent = `${method.value} /1.1${target} → ${answer.status}`;
      status.className = `rest-status ${answer.ok ? 'ok' : 'failed'}`;
      reply.textContent = answer.reply === null ? '(no body)' : stringify(answer.reply, '  ');
      status.hidden = reply.hidden = false;
    } catch (failure) {
      error.show(message(failure));
    } finally {
      send.disabled = false;
      root.dataset.state = 'ready';
    }
  }

  const form = h('form', { class: 'rest-form', onSubmit: (event) => { event.preventDefault(); execute(); } },
    h('div', { class: 'toolbar' }, method, h('span', { class: 'prefix' }, '/1.1'), path, send), bodyField);
  return replace(root, h('h3', {}, 'REST'),
    h('p', { class: 'hint' }, state.canEdit
      ? 'Requests run with the master key\'s rights: every permission is skipped.'
      : 'Viewers may send GET requests only.'),
    form, error, status, reply);
}
