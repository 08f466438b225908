// The console's entry point: signed in (the session cookie, read back on every load) or the sign-in screen.
import { session, whenUnauthorized } from './api.js';
import { message, replace } from './dom.js';
import { state } from './state.js';
import { shellView } from './views/shell.js';
import { signInView } from './views/signin.js';

const root = document.getElementById('app');

function showSignIn(notice) {
  state.session = null;
  window.onhashchange = null;
  replace(root, signInView(showShell, notice));
}

function showShell(signedIn) {
  state.session = signedIn;
  replace(root, shellView(() => showSignIn()));
}

async function start() {
  try {
    const signedIn = await session.load();
    if (signedIn) showShell(signedIn);
    else showSignIn();
  } catch (failure) {
    showSignIn(message(failure));
  }
}

whenUnauthorized(() => showSignIn('The console session has ended: sign in again.'));
start();
