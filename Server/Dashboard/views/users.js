// Users: a search by the start of the username, e-mail or phone number, a page of users at a time, and per user its
// account (lock-out, recent failures, sessions) and, for administrators, a new password, marking the e-mail or phone
// verified, revoking every session and lifting a lock-out.
import { api, consoleApi } from '../api.js';
import { h, message, modal, replace, statusLine } from '../dom.js';
import { href } from '../router.js';
import { condition } from '../where.js';
import { state } from '../state.js';
import { codecFor } from '../types.js';
import { resultsTable } from './cells.js';
import { pager } from './pager.js';

const COLUMNS = [
  { name: 'username', type: 'String' }, { name: 'email', type: 'String' },
  { name: 'emailVerified', type: 'Boolean', label: 'verified' }, { name: 'mobilePhoneNumber', type: 'String', label: 'phone' },
  { name: 'mobilePhoneVerified', type: 'Boolean', label: 'verified' }, { name: 'createdAt', type: 'Date' },
];
const SEARCHED = ['username', 'email', 'mobilePhoneNumber'];

/** The users whose username, e-mail or phone number starts with `text` (matched literally); {} for no text. */
export function searchCondition(text) {
  const typed = text.trim();
  if (!typed) return {};
  return { $or: SEARCHED.map((name) => condition(name, 'starts', typed)) };
}

const userPath = (id, more = '') => `/users/${encodeURIComponent(id)}${more}`;

export function usersView() {
  const error = statusLine();
  const notice = statusLine('notice');
  const done = statusLine('notice');
  const root = h('div', { class: 'users screen', dataset: { state: 'loading' } });
  const holder = h('div', { class: 'table-wrap' });
  let where = {};
  const pages = pager('_User', {
    query: () => ({ where, order: '-createdAt' }),
    draw: (rows) => replace(holder, resultsTable(rows, COLUMNS, { className: '_User', actions, empty: 'No users.' })),
    error, notice, root,
  });

  /** A row's button: runs `run()`, shows what it did (or its error) and reloads the page. */
  const button = (name, label, run, className = '') => h('button', {
    type: 'button', name, class: className,
    onClick: async () => {
      error.show('');
      done.show('');
      try {
        const text = await run();
        if (!text) return;
        done.show(text);
        await pages.load();
      } catch (failure) {
        error.show(message(failure));
      }
    },
  }, label);

  function actions(user) {
    const name = user.username ?? user.objectId;
    return [
      h('a', { href: href('class', '_User', { where: { objectId: user.objectId } }), class: 'open', title: 'Open in the data browser' }, 'Open'),
      h('button', { type: 'button', name: 'account', onClick: () => accountView(user) }, 'Account'),
      state.canEdit ? [
        button('resetPassword', 'Password…', async () => (await resetPassword(user)) && `The password of ${name} was changed.`),
        user.email && user.emailVerified !== true ? button('verifyEmail', 'Verify e-mail', async () => {
          await api.put(userPath(user.objectId), { emailVerified: true });
          return `The e-mail of ${name} is marked verified.`;
        }) : null,
        user.mobilePhoneNumber && user.mobilePhoneVerified !== true ? button('verifyPhone', 'Verify phone', async () => {
          await api.put(userPath(user.objectId), { mobilePhoneVerified: true });
          return `The phone number of ${name} is marked verified.`;
        }) : null,
      ] : null,
    ];
  }

  const search = h('input', { type: 'text', name: 'search', autocomplete: 'off', placeholder: 'username, e-mail or phone starts with…' });
  const form = h('form', {
    class: 'toolbar',
    onSubmit: (event) => {
      event.preventDefault();
      where = searchCondition(search.value);
      done.show('');
      pages.restart();
    },
  }, search, h('button', { type: 'submit', name: 'searchUsers', class: 'primary' }, 'Search'),
  h('button', { type: 'button', name: 'refresh', onClick: () => pages.load() }, 'Refresh'));

  pages.load();
  return replace(root, form, error, done, notice, holder, pages.element);
}

/** Asks for the new password twice, then sets it with the master key; resolves true when it was set. */
async function resetPassword(user) {
  const first = h('input', { type: 'password', name: 'password', autocomplete: 'new-password' });
  const second = h('input', { type: 'password', name: 'repeat', autocomplete: 'new-password' });
  const body = h('div', { class: 'fields' },
    h('p', {}, `A new password for ${user.username ?? user.objectId}. The user's current session token stays valid unless the server revokes sessions on password changes.`),
    h('label', {}, 'New password ', first), h('label', {}, 'Repeat it ', second));
  setTimeout(() => first.focus());
  const set = async () => {
    if (!first.value) throw new Error('Type the new password.');
    if (first.value !== second.value) throw new Error('The two passwords differ.');
    await api.put(userPath(user.objectId), { password: first.value });
  };
  return (await modal('Reset password', body, [{ label: 'Set password', name: 'setPassword', primary: true, run: set }])) === 'setPassword';
}

const accountPath = (id, more = '') => `/users/${encodeURIComponent(id)}/${more}`;
const when = codecFor({ type: 'Date' }).label;

/**
 * The account of a user (GET /dashboard/users/<id>/account): locked or not, recent failed log-ins, its sessions
 * (never their tokens); for administrators "Revoke all sessions" (both kinds: LeanCloud/Bmob session tokens and Parse's
 * revocable sessions) and "Unlock". The dialog stays open and shows the account again after each action.
 */
async function accountView(user) {
  const name = user.username ?? user.objectId;
  const body = h('div', { class: 'account', dataset: { state: 'loading' } });
  const done = statusLine('notice');
  async function show() {
    body.dataset.state = 'loading';
    try {
      const account = await consoleApi.get(accountPath(user.objectId, 'account'));
      replace(body, accountDetails(account));
    } catch (failure) {
      replace(body, h('p', { class: 'error' }, message(failure)));
    }
    body.dataset.state = 'ready';
  }
  const act = (what, text) => async () => {
    done.show('');
    const reply = await consoleApi.post(accountPath(user.objectId, what));
    done.show(text(reply ?? {}));
    await show();
    return false;
  };
  const actions = state.canEdit ? [
    { label: 'Revoke all sessions', name: 'revokeSessions', danger: true,
      run: act('revoke-sessions', (reply) => `${reply.revoked ?? 0} session(s) of ${name} revoked: every client signed in as this user is signed out.`) },
    { label: 'Unlock', name: 'unlock', run: act('unlock', () => `${name} is unlocked.`) },
  ] : [];
  show();
  await modal(`Account of ${name}`, h('div', {}, body, done), actions, { wide: true, cancelLabel: 'Close' });
}

function accountDetails(account) {
  const sessions = account.sessions ?? [];
  return [
    h('dl', {},
      h('dt', {}, 'Locked'),
      h('dd', { class: account.locked ? 'locked' : '', dataset: { field: 'locked' } },
        account.locked ? `yes${account.lockedUntil ? `, until ${when(account.lockedUntil)}` : ''}` : 'no'),
      h('dt', {}, 'Recent failures'), h('dd', { dataset: { field: 'recentFailures' } }, String(account.recentFailures ?? 0)),
      h('dt', {}, 'Sessions'), h('dd', { dataset: { field: 'sessionCount' } }, String(sessions.length))),
    sessions.length ? h('table', { class: 'data sessions' },
      h('thead', {}, h('tr', {}, ['Kind', 'Created', 'Expires', 'Installation'].map((title) => h('th', {}, title)))),
      h('tbody', {}, sessions.map((session) => h('tr', { dataset: { kind: session.kind ?? '' } },
        h('td', {}, session.kind ?? ''), h('td', {}, when(session.createdAt)),
        h('td', {}, session.expiresAt ? when(session.expiresAt) : 'never'), h('td', {}, session.installationId ?? ''))))) : null,
  ];
}
