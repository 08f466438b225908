// The request log: this instance's recent requests (GET /dashboard/requests), or the log file's (--request-log),
// filtered by status, path, method, dialect and slowness, newest first; slow ones highlighted; refreshed every 2 s
// while asked to.
import { consoleApi } from '../api.js';
import { h, message, replace, statusLine } from '../dom.js';

const REFRESH_MILLISECONDS = 2000;
/** The filters chosen, kept while the page lives. */
const chosen = { source: '', status: '', path: '', method: '', dialect: '', slow: false, auto: false };

const select = (name, options) => h('select', { name },
  options.map(([value, label]) => h('option', { value, selected: chosen[name] === value }, label)));

export function requestsView() {
  const error = statusLine();
  const summary = h('p', { class: 'summary' });
  const holder = h('div', { class: 'table-wrap' });
  const root = h('div', { class: 'requests screen', dataset: { state: 'loading' } });
  const source = select('source', [['', 'recent, this instance'], ['file', 'the log file']]);
  const status = select('status', [['', 'any status'], ['error', 'errors'], ['4xx', '4xx'], ['5xx', '5xx']]);
  const method = select('method', [['', 'any method'], ...['GET', 'POST', 'PUT', 'DELETE'].map((name) => [name, name])]);
  const dialect = select('dialect', [['', 'any dialect'], ['leancloud', 'LeanCloud'], ['parse', 'Parse'], ['bmob', 'Bmob']]);
  const path = h('input', { type: 'text', name: 'path', autocomplete: 'off', placeholder: 'path contains…', value: chosen.path });
  const slow = h('input', { type: 'checkbox', name: 'slow', checked: chosen.slow });
  const auto = h('input', { type: 'checkbox', name: 'autoRefresh', checked: chosen.auto });
  let loads = 0;
  let timer = null;

  async function load() {
    const ticket = ++loads;
    Object.assign(chosen, { source: source.value, status: status.value, method: method.value, dialect: dialect.value, path: path.value, slow: slow.checked });
    root.dataset.state = 'loading';
    try {
      const reply = await consoleApi.get('/requests', {
        source: chosen.source || undefined, status: chosen.status || undefined, method: chosen.method || undefined, dialect: chosen.dialect || undefined,
        path: chosen.path.trim() || undefined, slow: chosen.slow ? 'true' : undefined, limit: 200,
      });
      if (ticket !== loads) return;
      error.show('');
      const file = source.querySelector('option[value=file]');
      file.disabled = !reply.file;
      file.title = reply.file ? reply.file : 'No log file: start cirrus serve with --request-log <file>';
      summary.textContent = `${reply.results.length} request${reply.results.length === 1 ? '' : 's'} shown, newest first, `
        + (chosen.source === 'file' ? `from the end of ${reply.file}` : `from the last ${reply.capacity} of this instance`)
        + `; slow: ${Number(reply.slowMilliseconds)} ms or more.`;
      replace(holder, table(reply.results));
    } catch (failure) {
      if (ticket !== loads) return;
      error.show(message(failure));
    }
    root.dataset.state = 'ready';
  }

  /** Every 2 s while the box is ticked and the screen is shown. */
  function schedule() {
    clearInterval(timer);
    chosen.auto = auto.checked;
    if (!auto.checked) return;
    timer = setInterval(() => {
      if (!root.isConnected || !auto.checked) { clearInterval(timer); return; }
      load();
    }, REFRESH_MILLISECONDS);
  }

  for (const control of [source, status, method, dialect, slow]) control.addEventListener('change', load);
  auto.addEventListener('change', schedule);
  const filters = h('form', {
    class: 'toolbar filters-line',
    onSubmit: (event) => { event.preventDefault(); load(); },
  }, source, status, method, dialect, path, h('label', {}, slow, ' slow only'),
  h('button', { type: 'submit', name: 'refresh', class: 'primary' }, 'Refresh'),
  h('span', { class: 'spacer' }), h('label', {}, auto, ' refresh every 2 s'));

  load();
  schedule();
  return replace(root, filters, error, summary, holder);
}

const time = (entry) => {
  const date = new Date(entry.time?.iso ?? entry.time);
  return Number.isNaN(date.getTime()) ? '' : `${date.toLocaleTimeString('en-GB')}.${String(date.getMilliseconds()).padStart(3, '0')}`;
};

const COLUMNS = [
  ['time', 'Time', time], ['method', 'Method'], ['path', 'Path'], ['dialect', 'Dialect'], ['status', 'Status'],
  ['code', 'Code'], ['milliseconds', 'ms', (entry) => (entry.milliseconds === undefined ? '' : String(entry.milliseconds))],
  ['caller', 'Caller'], ['client', 'Client'],
];

function table(entries) {
  const row = (entry) => h('tr', {
    class: [entry.slow ? 'slow' : '', entry.status >= 500 ? 'status-5xx' : entry.status >= 400 ? 'status-4xx' : ''].join(' ').trim(),
    dataset: { status: String(entry.status), code: entry.code === undefined ? '' : String(entry.code) },
  }, COLUMNS.map(([name, , text]) => h('td', { dataset: { field: name }, title: name === 'time' ? entry.time?.iso : null },
    text ? text(entry) : String(entry[name] ?? ''))));
  return h('table', { class: 'data log' },
    h('thead', {}, h('tr', {}, COLUMNS.map(([name, label]) => h('th', { dataset: { field: name } }, label)))),
    h('tbody', {}, entries.length ? entries.map(row) : h('tr', {}, h('td', { class: 'empty', colspan: COLUMNS.length }, 'No requests match.'))));
}
