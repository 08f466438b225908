// Import and export. An import sends an export file of LeanCloud, Parse or Bmob (a .tar.gz/.tgz archive or one
// .json/.jsonl class file) to POST /dashboard/imports, then shows its progress until it succeeds or fails, and the
// recent imports. An export is LeanCloud's POST /1.1/exportData, watched until its download link is ready.
import { api, consoleApi } from '../api.js';
import { h, message, replace, statusLine } from '../dom.js';
import { isPlainObject, stringify } from '../json.js';
import { state } from '../state.js';
import { sizeLabel } from './files.js';

const POLL_MILLISECONDS = 500;
const EXPORT_POLL_MILLISECONDS = 1000;
const FORMATS = /\.(tar\.gz|tgz|json|jsonl)$/i;
const SOURCES = [['leancloud', 'LeanCloud'], ['parse', 'Parse'], ['bmob', 'Bmob']];

const wait = (milliseconds) => new Promise((resolve) => { setTimeout(resolve, milliseconds); });

export function importView() {
  const recent = recentImports();
  return h('div', { class: 'imports screen' },
    state.canEdit ? importForm(recent.load) : h('p', { class: 'hint' }, 'Viewers cannot import or export data.'),
    recent.element,
    state.canEdit ? exportSection() : null);
}

function importForm(imported) {
  const chooser = h('input', { type: 'file', name: 'importFile', accept: '.tar.gz,.tgz,.json,.jsonl' });
  const source = h('select', { name: 'source' }, SOURCES.map(([value, label]) => h('option', { value }, label)));
  const start = h('button', { type: 'submit', name: 'startImport', class: 'primary' }, 'Import');
  const error = statusLine();
  const progress = h('div', { class: 'import-progress', hidden: true });
  const root = h('section', { class: 'import', dataset: { state: 'ready' } });

  async function run() {
    error.show('');
    const file = chooser.files[0];
    if (!file) { error.show('Choose an export file.'); return; }
    if (!FORMATS.test(file.name)) { error.show('An export file is a .tar.gz or .tgz archive, or one .json or .jsonl class file.'); return; }
    start.disabled = true;
    root.dataset.state = 'running';
    try {
      const started = await consoleApi.postFile('/imports', { from: source.value, name: file.name }, file);
      const finished = await watch(started, progress);
      root.dataset.state = finished.status;
    } catch (failure) {
      error.show(message(failure));
      root.dataset.state = 'ready';
    } finally {
      start.disabled = false;
      imported();
    }
  }

  const form = h('form', { class: 'toolbar', onSubmit: (event) => { event.preventDefault(); run(); } },
    h('label', {}, 'Export file ', chooser), h('label', {}, 'from ', source), start);
  return replace(root, h('h3', {}, 'Import'),
    h('p', { class: 'hint' }, 'Objects keep their objectIds, dates and ACLs; users keep their passwords. Objects already here are left as they are.'),
    form, error, progress);
}

/** Polls the import every 500 ms, drawing its progress into `element`, until it succeeded or failed; answers it. */
async function watch(started, element) {
  const bar = h('progress', { max: 1 });
  const line = h('p', { class: 'progress-line' });
  const outcome = h('div', { class: 'outcome' });
  element.hidden = false;
  replace(element, h('p', { class: 'what' }, `${started.name ?? ''} (${started.from ?? ''})`), bar, line, outcome);
  let job = started;
  for (;;) {
    draw(job);
    if (job.status === 'succeeded' || job.status === 'failed') return job;
    await wait(POLL_MILLISECONDS);
    job = await consoleApi.get(`/imports/${encodeURIComponent(started.id)}`);
  }

  function draw(current) {
    element.dataset.status = current.status;
    const total = Number(current.totalBytes ?? 0);
    const done = Number(current.doneBytes ?? 0);
    if (current.status === 'succeeded') {
      bar.max = 1;
      bar.value = 1;
    } else if (total > 0) {
      bar.max = total;
      bar.value = Math.min(done, total);
    } else {
      bar.removeAttribute('value'); // indeterminate until the size is known
    }
    const parts = [current.status];
    if (current.records !== undefined) parts.push(`${Number(current.records).toLocaleString('en')} records`);
    if (total > 0) parts.push(`${sizeLabel(done)} of ${sizeLabel(total)}`);
    line.textContent = parts.join(' · ');
    if (current.status === 'succeeded') replace(outcome, h('h4', {}, 'Summary'), summaryList(current.summary));
    if (current.status === 'failed') replace(outcome, h('p', { class: 'error' }, current.error ?? 'The import failed.'), summaryList(current.summary));
  }
}

/** The summary as a list: numbers and texts as they are, counts by class as a table, anything else as JSON. */
function summaryList(summary) {
  if (!isPlainObject(summary)) return summary === undefined ? null : h('pre', { class: 'json' }, stringify(summary, '  '));
  return h('dl', { class: 'summary-list' }, Object.entries(summary).map(([key, value]) => [
    h('dt', {}, key), h('dd', { dataset: { key } }, typeof value === 'string' ? value : table(value) ?? stringify(value)),
  ]));
}

/** {name: {count: N, …}, …} as a table with a row per name; null for anything else. */
function table(value) {
  const entries = isPlainObject(value) ? Object.entries(value) : [];
  if (!entries.length || !entries.every(([, item]) => isPlainObject(item))) return null;
  const columns = [...new Set(entries.flatMap(([, item]) => Object.keys(item)))];
  return h('table', {}, h('thead', {}, h('tr', {}, h('th'), columns.map((name) => h('th', {}, name)))),
    h('tbody', {}, entries.map(([name, item]) => h('tr', { dataset: { name } }, h('td', {}, name),
      columns.map((column) => h('td', {}, stringify(item[column] ?? '')))))));
}

function recentImports() {
  const error = statusLine();
  const holder = h('div', { class: 'table-wrap' });
  const element = h('section', { class: 'recent-imports' }, h('h3', {}, 'Recent imports'), error, holder);
  const columns = [
    ['name', 'File'], ['from', 'From'], ['status', 'Status'], ['records', 'Records'],
    ['startedAt', 'Started', (job) => when(job.startedAt)], ['finishedAt', 'Finished', (job) => when(job.finishedAt)],
    ['error', 'Error'],
  ];
  async function load() {
    try {
      const reply = await consoleApi.get('/imports');
      error.show('');
      replace(holder, h('table', { class: 'data imports-table' },
        h('thead', {}, h('tr', {}, columns.map(([name, label]) => h('th', { dataset: { field: name } }, label)))),
        h('tbody', {}, reply.results.length ? reply.results.map((job) => h('tr', { dataset: { id: job.id, status: job.status } },
          columns.map(([name, , text]) => h('td', { dataset: { field: name } }, text ? text(job) : String(job[name] ?? '')))))
          : h('tr', {}, h('td', { class: 'empty', colspan: columns.length }, 'No imports yet.')))));
    } catch (failure) {
      error.show(message(failure));
    }
  }
  load();
  return { element, load };
}

const when = (date) => {
  const iso = date?.iso ?? date;
  return iso ? new Date(iso).toLocaleString('en-GB') : '';
};

/** LeanCloud's export: POST /exportData, then its status every second until the download link is ready. */
function exportSection() {
  const classes = h('input', { type: 'text', name: 'exportClasses', autocomplete: 'off', placeholder: 'all classes, or Post, _User' });
  const onlySchema = h('input', { type: 'checkbox', name: 'onlySchema' });
  const start = h('button', { type: 'submit', name: 'startExport', class: 'primary' }, 'Export');
  const error = statusLine();
  const status = h('p', { class: 'export-status', hidden: true });
  const root = h('section', { class: 'export', dataset: { state: 'ready' } });

  async function run() {
    error.show('');
    start.disabled = true;
    root.dataset.state = 'running';
    status.hidden = false;
    try {
      const body = { 'only-schema': onlySchema.checked ? 'true' : 'false' };
      if (classes.value.trim()) body.classes = classes.value.split(',').map((name) => name.trim()).filter(Boolean).join(',');
      let job = await api.post('/exportData', body);
      while (job.status === 'running') {
        replace(status, `Export ${job.id}: running…`);
        await wait(EXPORT_POLL_MILLISECONDS);
        job = await api.get(`/exportData/${encodeURIComponent(job.id)}`);
      }
      if (job.status === 'done') {
        replace(status, `Export ${job.id} is ready: `,
          h('a', { href: job.download_url, class: 'download', rel: 'noreferrer' }, `download (${sizeLabel(job.size)})`),
          h('small', {}, ' The link works for 24 hours. The archive holds password hashes and session tokens: keep it private.'));
      } else {
        replace(status);
        status.hidden = true;
        error.show(`The export failed: ${job.error ?? job.status}`);
      }
      root.dataset.state = job.status;
    } catch (failure) {
      status.hidden = true;
      error.show(message(failure));
      root.dataset.state = 'ready';
    } finally {
      start.disabled = false;
    }
  }

  return replace(root, h('h3', {}, 'Export'),
    h('p', { class: 'hint' }, 'LeanCloud\'s export format (JSON lines per class, relations, schema), without file contents.'),
    h('form', { class: 'toolbar', onSubmit: (event) => { event.preventDefault(); run(); } },
      h('label', {}, 'Classes ', classes), h('label', {}, onlySchema, ' schema only'), start),
    error, status);
}
