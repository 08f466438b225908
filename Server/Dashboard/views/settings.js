// The settings the server runs with (GET /dashboard/settings), grouped; the server masks the keys and the passwords
// of URLs before they reach the page.
import { consoleApi } from '../api.js';
import { h, message, replace, statusLine } from '../dom.js';
import { isPlainObject, stringify } from '../json.js';

const GROUPS = {
  server: 'Server', keys: 'Keys', store: 'Store', files: 'File storage', mail: 'Mail', sms: 'SMS',
  liveQuery: 'LiveQuery', cloudCode: 'Cloud code', push: 'Push', limits: 'Limits',
};

export function settingsView() {
  const error = statusLine();
  const root = h('div', { class: 'settings screen', dataset: { state: 'loading' } });
  consoleApi.get('/settings').then((settings) => {
    replace(root, error, groups(settings));
  }).catch((failure) => {
    error.show(message(failure));
    replace(root, error);
  }).finally(() => { root.dataset.state = 'ready'; });
  return replace(root, error);
}

/** The top-level values as the group "Server", then a group per object. */
function groups(settings) {
  const scalars = Object.entries(settings).filter(([, value]) => !isPlainObject(value));
  const order = Object.keys(GROUPS);
  const rank = (name) => (order.includes(name) ? order.indexOf(name) : order.length);
  const objects = Object.entries(settings).filter(([, value]) => isPlainObject(value))
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
  return h('div', { class: 'groups' },
    scalars.length ? group('server', Object.fromEntries(scalars), '') : null,
    objects.map(([name, value]) => group(name, value, `${name}.`)));
}

function group(name, values, prefix) {
  return h('section', { class: 'group', dataset: { group: name } }, h('h3', {}, GROUPS[name] ?? name),
    h('dl', {}, Object.entries(values).map(([key, value]) => [
      h('dt', {}, key),
      h('dd', { dataset: { key: prefix + key }, class: value === null ? 'null' : '' }, text(value)),
    ])));
}

function text(value) {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return value.toLocaleString('en');
  return stringify(value);
}
