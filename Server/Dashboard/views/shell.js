// The signed-in layout: a header (app, the screens, who, sign-out), the sidebar of classes with counts on demand, the
// main area: a class's data or schema, or one of the screens.
import { api, count, session } from '../api.js';
import { h, message, modal, replace, statusLine } from '../dom.js';
import { stopFollowing } from '../live.js';
import { currentRoute, go, href } from '../router.js';
import { loadClasses, state } from '../state.js';
import { browserView } from './browser.js';
import { consoleView } from './console.js';
import { filesView } from './files.js';
import { importView } from './imports.js';
import { requestsView } from './requests.js';
import { rolesView } from './roles.js';
import { schemaView } from './schema.js';
import { settingsView } from './settings.js';
import { usersView } from './users.js';

/** The screens beside the data browser, by route (#/<name>): [route, label, view(route)]. */
const SCREENS = [
  ['users', 'Users', usersView], ['roles', 'Roles', rolesView], ['files', 'Files', filesView],
  ['cql', 'CQL & REST', consoleView], ['requests', 'Requests', requestsView], ['settings', 'Settings', settingsView],
  ['import', 'Import & export', importView],
];

export function shellView(onSignedOut) {
  const classList = h('ul', { class: 'classes' });
  const main = h('section', { class: 'main' });
  const error = statusLine();

  async function refreshClasses() {
    error.show('');
    try {
      await loadClasses();
    } catch (failure) {
      error.show(message(failure));
    }
    renderClasses();
  }

  function renderClasses() {
    const route = currentRoute();
    replace(classList, [...state.classes.keys()].map((className) => classItem(className, route.className === className)));
  }

  async function render() {
    stopFollowing();
    const route = currentRoute();
    for (const link of screens.children) link.classList.toggle('active', link.dataset.screen === route.view);
    const screen = SCREENS.find(([name]) => name === route.view);
    if (screen) {
      renderClasses();
      replace(main, h('div', { class: 'title' }, h('h2', {}, screen[1])), screen[2](route));
      return;
    }
    if (route.className && !state.classes.has(route.className)) await refreshClasses(); // made since the last look
    renderClasses();
    if (!state.classes.has(route.className)) {
      replace(main, h('div', { class: 'empty' }, state.classes.size ? 'Choose a class.' : 'No classes yet.'));
      return;
    }
    replace(main, classTitle(route),
      route.view === 'schema' ? schemaView(route.className, { refreshClasses, render }) : browserView(route.className, route));
  }

  const signOut = h('button', {
    type: 'button', name: 'signOut',
    onClick: async () => {
      try { await session.signOut(); } catch (failure) { error.show(message(failure)); return; }
      stopFollowing();
      onSignedOut();
    },
  }, 'Sign out');
  const who = h('span', { class: 'who' }, `${state.session.name} · ${state.session.role}`);
  const screens = h('nav', { class: 'screens' }, SCREENS.map(([name, label]) =>
    h('a', { href: `#/${name}`, dataset: { screen: name } }, label)));
  const header = h('header', { class: 'top' },
    h('a', { href: '#/', class: 'home' }, h('strong', {}, 'Cirrus console')), h('span', { class: 'app' }, state.session.appId ?? ''),
    screens, who, signOut);
  const newClass = state.canEdit
    ? h('button', { type: 'button', name: 'newClass', onClick: () => createClass(refreshClasses) }, '+ Class') : null;
  const sidebar = h('nav', { class: 'sidebar' },
    h('div', { class: 'sidebar-head' }, h('span', {}, 'Classes'),
      h('button', { type: 'button', name: 'reloadClasses', title: 'Reload the classes', onClick: refreshClasses }, '↻'), newClass),
    classList);
  const layout = h('div', { class: 'layout' }, header, sidebar, h('div', { class: 'content' }, error, main));

  window.onhashchange = render;
  refreshClasses().then(render);
  return layout;
}

/** The class's name and its two screens. */
function classTitle({ className, view }) {
  const tab = (name, label) => h('a', { href: href(name, className), class: view === name ? 'active' : '' }, label);
  return h('div', { class: 'title' }, h('h2', {}, className),
    h('nav', { class: 'views' }, tab('class', 'Data'), tab('schema', 'Schema')));
}

/** The counts the user asked for, by class (shown again when the list is redrawn). */
const counts = new Map();

function classItem(className, current) {
  const counter = h('button', {
    type: 'button', class: 'count', title: `Count the objects of ${className}`, dataset: { count: className },
    onClick: async () => {
      counter.disabled = true;
      counter.textContent = '…';
      try {
        counts.set(className, (await count(className)).toLocaleString('en'));
        counter.textContent = counts.get(className);
      } catch (failure) {
        counter.textContent = '!';
        counter.title = message(failure);
      } finally {
        counter.disabled = false;
      }
    },
  }, counts.get(className) ?? 'count');
  return h('li', { class: current ? 'current' : '', dataset: { className } },
    h('a', { href: href('class', className), class: 'class-link' }, className),
    h('a', { href: href('schema', className), class: 'schema-link', title: `Schema of ${className}` }, 'schema'),
    counter);
}

async function createClass(refreshClasses) {
  const name = h('input', { type: 'text', name: 'className', autocomplete: 'off', placeholder: 'Post' });
  const body = h('label', {}, 'Class name ', name);
  setTimeout(() => name.focus());
  const created = await modal('New class', body, [{
    label: 'Create', name: 'create', primary: true,
    run: () => api.post(`/schemas/${encodeURIComponent(name.value.trim())}`, {}),
  }]);
  if (!created) return;
  await refreshClasses();
  go('schema', name.value.trim());
}
