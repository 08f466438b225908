// The sign-in screen: the master key, or an administrator's username and password.
import { session } from '../api.js';
import { h, message, statusLine } from '../dom.js';

export function signInView(onSignedIn, notice) {
  const error = statusLine();
  error.show(notice);
  let mode = 'master';
  const masterKey = h('input', { type: 'password', name: 'masterKey', autocomplete: 'off', required: true });
  const username = h('input', { type: 'text', name: 'username', autocomplete: 'username' });
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'current-password' });
  const masterFields = h('div', { class: 'fields' }, h('label', {}, 'Master key', masterKey));
  const userFields = h('div', { class: 'fields', hidden: true },
    h('label', {}, 'Username', username), h('label', {}, 'Password', password));
  const tab = (name, label) => h('button', {
    type: 'button', class: name === mode ? 'tab active' : 'tab', dataset: { mode: name },
    onClick: () => choose(name),
  }, label);
  const tabs = h('div', { class: 'tabs' }, tab('master', 'Master key'), tab('user', 'Administrator account'));
  const submit = h('button', { type: 'submit', class: 'primary', name: 'signIn' }, 'Sign in');

  function choose(name) {
    mode = name;
    masterFields.hidden = name !== 'master';
    userFields.hidden = name === 'master';
    masterKey.required = name === 'master';
    username.required = password.required = name !== 'master';
    for (const button of tabs.children) button.classList.toggle('active', button.dataset.mode === name);
    (name === 'master' ? masterKey : username).focus();
  }

  const form = h('form', {
    class: 'signin', autocomplete: 'off',
    onSubmit: async (event) => {
      event.preventDefault();
      error.show('');
      submit.disabled = true;
      const credentials = mode === 'master'
        ? { masterKey: masterKey.value } : { username: username.value, password: password.value };
      try {
        const signedIn = await session.signIn(credentials);
        masterKey.value = password.value = '';
        onSignedIn(signedIn);
      } catch (failure) {
        error.show(message(failure));
      } finally {
        submit.disabled = false;
      }
    },
  }, h('h1', {}, 'Cirrus console'), tabs, masterFields, userFields, error, submit);
  setTimeout(() => masterKey.focus());
  return h('main', { class: 'signin-page' }, form);
}
