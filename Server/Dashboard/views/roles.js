// Roles: the list of roles, a new role (name and ACL), and one role's users (its relation `users`) and the roles it
// contains (its relation `roles`: their users get its rights too), which administrators add and remove.
import { api } from '../api.js';
import { confirm, h, message, modal, replace, statusLine } from '../dom.js';
import { href } from '../router.js';
import { state } from '../state.js';
import { resultsTable } from './cells.js';
import { aclEditor } from './editors.js';
import { pager } from './pager.js';

const pointer = (className, objectId) => ({ __type: 'Pointer', className, objectId });
const rolePath = (id) => `/roles/${encodeURIComponent(id)}`;
const roleLink = (role) => h('a', { href: `#/roles/${encodeURIComponent(role.objectId)}`, class: 'role-link' }, role.name ?? role.objectId);

export function rolesView(route) {
  const error = statusLine();
  const notice = statusLine('notice');
  const root = h('div', { class: 'roles screen', dataset: { state: 'loading' } });
  const holder = h('div', { class: 'table-wrap' });
  const columns = [
    { name: 'name', type: 'String', content: roleLink }, { name: 'objectId', type: 'String' },
    { name: 'ACL', type: 'ACL' }, { name: 'createdAt', type: 'Date' },
  ];
  const list = pager('_Role', {
    query: () => ({ order: 'name', returnACL: true }),
    draw: (rows) => replace(holder, resultsTable(rows, columns, { className: '_Role', current: route.className, empty: 'No roles.' })),
    error, notice, root,
  });
  list.load();
  const create = state.canEdit ? h('button', {
    type: 'button', name: 'newRole', class: 'primary',
    onClick: async () => {
      const id = await createRole();
      if (id) location.hash = `#/roles/${encodeURIComponent(id)}`;
    },
  }, '+ Role') : null;
  return replace(root, h('div', { class: 'toolbar' }, create, h('button', { type: 'button', name: 'refresh', onClick: () => list.load() }, 'Refresh')),
    error, notice, holder, list.element, route.className ? roleDetail(route.className) : null);
}

/** Asks for a name and an ACL and creates the role; resolves with its objectId, or null. */
async function createRole() {
  const name = h('input', { type: 'text', name: 'roleName', autocomplete: 'off', placeholder: 'Editors' });
  const acl = aclEditor({ '*': { read: true } });
  let id = null;
  const body = h('div', { class: 'fields' }, h('label', {}, 'Name ', name),
    h('p', { class: 'hint' }, 'Letters, digits, _, - and spaces. The ACL says who may read and change the role itself.'), acl.element);
  setTimeout(() => name.focus());
  const run = async () => {
    if (!name.value.trim()) throw new Error('A role needs a name.');
    id = (await api.post('/roles', { name: name.value.trim(), ACL: acl.read() })).objectId;
  };
  return (await modal('New role', body, [{ label: 'Create', name: 'create', primary: true, run }], { wide: true })) ? id : null;
}

/** One role: its users and its roles. */
function roleDetail(roleId) {
  const error = statusLine();
  const done = statusLine('notice');
  const title = h('h3', {}, `Role ${roleId}`);
  const users = relationSection(roleId, 'users', '_User', {
    title: 'Users', empty: 'No users in this role.',
    columns: [{ name: 'username', type: 'String' }, { name: 'objectId', type: 'String' }, { name: 'email', type: 'String' }],
    placeholder: 'username or objectId', find: (text) => findOne('/users', { username: text }, text, `No user is named ${text}.`),
  }, error, done);
  const roles = relationSection(roleId, 'roles', '_Role', {
    title: 'Roles in this role', hint: 'The users of these roles get this role\'s rights too.', empty: 'No roles in this role.',
    columns: [{ name: 'name', type: 'String', content: roleLink }, { name: 'objectId', type: 'String' }],
    placeholder: 'role name or objectId', find: (text) => findOne('/roles', { name: text }, text, `No role is named ${text}.`),
  }, error, done);
  api.get(rolePath(roleId)).then((role) => { title.textContent = `Role ${role.name}`; })
    .catch((failure) => error.show(message(failure)));
  return h('section', { class: 'role-detail', dataset: { role: roleId } }, title, error, done, users, roles);
}

/** The object `where` finds, else the one whose objectId is `text`. */
async function findOne(path, where, text, missing) {
  for (const condition of [where, { objectId: text }]) {
    const reply = await api.get(path, { where: condition, limit: 1 });
    if (reply.results[0]) return reply.results[0];
  }
  throw new Error(missing);
}

/** A relation of the role (`key`, to `className`): its members a page at a time, and adding or removing one. */
function relationSection(roleId, key, className, options, error, done) {
  const notice = statusLine('notice');
  const holder = h('div', { class: 'table-wrap' });
  const root = h('section', { class: `relation ${key}`, dataset: { relation: key, state: 'loading' } });
  const change = async (op, member) => {
    await api.put(rolePath(roleId), { [key]: { __op: op, objects: [pointer(className, member.objectId)] } });
    await members.load();
  };
  const remove = (member) => h('button', {
    type: 'button', name: 'removeMember', class: 'danger',
    onClick: async () => {
      error.show('');
      done.show('');
      const label = member.username ?? member.name ?? member.objectId;
      if (!await confirm('Remove from role', `Remove ${label} from this role?`, { label: 'Remove' })) return;
      try {
        await change('RemoveRelation', member);
        done.show(`${label} removed.`);
      } catch (failure) {
        error.show(message(failure));
      }
    },
  }, 'Remove');
  const members = pager(className, {
    query: () => ({ where: { $relatedTo: { object: pointer('_Role', roleId), key } }, order: '-createdAt' }),
    draw: (rows) => replace(holder, resultsTable(rows, options.columns, {
      className, empty: options.empty, actions: state.canEdit ? remove : undefined,
    })),
    error, notice, root,
  });
  const input = h('input', { type: 'text', name: key === 'users' ? 'addUser' : 'addRole', autocomplete: 'off', placeholder: options.placeholder });
  const add = state.canEdit ? h('form', {
    class: 'toolbar',
    onSubmit: async (event) => {
      event.preventDefault();
      error.show('');
      done.show('');
      try {
        if (!input.value.trim()) throw new Error(`Type a ${options.placeholder}.`);
        const member = await options.find(input.value.trim());
        if (key === 'roles' && member.objectId === roleId) throw new Error('A role cannot contain itself.');
        await change('AddRelation', member);
        done.show(`${member.username ?? member.name} added.`);
        input.value = '';
      } catch (failure) {
        error.show(message(failure));
      }
    },
  }, input, h('button', { type: 'submit', name: key === 'users' ? 'addUserToRole' : 'addRoleToRole', class: 'primary' }, 'Add')) : null;
  members.load();
  return replace(root, h('h4', {}, options.title), options.hint ? h('p', { class: 'hint' }, options.hint) : null,
    add, notice, holder, members.element,
    h('p', {}, h('a', { href: href('class', className, { where: { $relatedTo: { object: pointer('_Role', roleId), key } } }) }, 'Open in the data browser')));
}
