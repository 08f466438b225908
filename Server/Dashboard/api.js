// Talking to the server: the console session (/dashboard/session) and the REST API with master-key rights
// (/dashboard/api/1.1/…). The CSRF token lives in this module's memory only; the session itself is an HttpOnly cookie.
import { parse, stringify } from './json.js';

const CONSOLE = '/dashboard/';
const SESSION = '/dashboard/session';
const API = '/dashboard/api/1.1';
let csrf = null;
let onUnauthorized = () => {};

/** What to do when the API answers 401: the console session has ended. */
export function whenUnauthorized(handler) { onUnauthorized = handler; }

/** An error reply: `message` is the server's `error` text, `code` its code. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.code ?? status;
  }
}

/** `path?name=value&…`; objects and arrays are sent as JSON; undefined values are left out. */
function withQuery(path, params = {}) {
  const pairs = Object.entries(params)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([name, value]) => {
      const text = typeof value === 'object' ? stringify(value) : String(value);
      return `${encodeURIComponent(name)}=${encodeURIComponent(text)}`;
    });
  return pairs.length ? `${path}?${pairs.join('&')}` : path;
}

/** One request: answers {status, reply} (the parsed JSON body) whatever the status; throws only when unreachable. */
async function exchange(method, url, { body, raw, contentType, credentials = 'same-origin' } = {}) {
  const headers = {};
  if (method !== 'GET' && method !== 'HEAD' && csrf && credentials !== 'omit') headers['X-Cirrus-CSRF'] = csrf;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (raw !== undefined) headers['Content-Type'] = contentType || 'application/octet-stream';
  let response;
  try {
    response = await fetch(url, {
      method, headers, credentials, cache: 'no-store',
      body: raw ?? (body === undefined ? undefined : stringify(body)),
    });
  } catch (error) {
    throw new ApiError(0, { error: `The server cannot be reached (${error.message}).` });
  }
  const text = await response.text();
  let reply = null;
  try { reply = text ? parse(text) : null; } catch { reply = { error: text.slice(0, 300) }; }
  // The console's session ended (a sign-in's own 401 only says the key or password was wrong).
  if (response.status === 401 && url.startsWith(CONSOLE) && !url.startsWith(SESSION)) onUnauthorized();
  return { status: response.status, ok: response.ok, reply };
}

async function send(method, url, options) {
  const { status, ok, reply } = await exchange(method, url, options);
  if (!ok) throw new ApiError(status, reply);
  return reply;
}

export const api = {
  get: (path, params) => send('GET', withQuery(API + path, params)),
  post: (path, body) => send('POST', API + path, { body }),
  put: (path, body) => send('PUT', API + path, { body }),
  delete: (path) => send('DELETE', API + path),
  upload,
  /** Any method and path below /1.1 (with its query), for the REST console: {status, reply}, errors included. */
  request: (method, path, body) => exchange(method, API + path, { body }),
};

/** The console's own endpoints (/dashboard/requests, /dashboard/settings, /dashboard/imports, /dashboard/users). */
export const consoleApi = {
  get: (path, params) => send('GET', withQuery(`/dashboard${path}`, params)),
  post: (path, body = {}) => send('POST', `/dashboard${path}`, { body }),
  /** A File as the raw body of a POST. */
  postFile: (path, params, file) =>
    send('POST', withQuery(`/dashboard${path}`, params), { raw: file, contentType: file.type || 'application/octet-stream' }),
};

/**
 * Uploads a File (a browser File object) as LeanCloud's SDKs do: a file token, the raw content PUT to its upload URL
 * (on this server: sent to the page's own origin, so a --public-url elsewhere does not matter), then the callback.
 * Answers {objectId, url, name}. (The contract's `POST /files/<name>` is not answered by the LeanCloud dialect.)
 */
async function upload(file) {
  const type = file.type || 'application/octet-stream';
  const token = await api.post('/fileTokens', { name: file.name, mime_type: type, metaData: { size: file.size } });
  const target = new URL(token.upload_url, location.href);
  try {
    await send('PUT', target.pathname + target.search, { raw: file, contentType: type, credentials: 'omit' });
  } catch (error) {
    await api.post('/fileCallback', { token: token.token, result: false }).catch(() => {});
    throw error;
  }
  await api.post('/fileCallback', { token: token.token, result: true });
  return { objectId: token.objectId, url: token.url, name: token.name };
}

/** The console session: {name, role, csrf, expiresAt, appId}, or null when signed out. */
export const session = {
  async load() {
    try {
      return remember(await send('GET', SESSION));
    } catch (error) {
      if (error.status === 401) return null;
      throw error;
    }
  },
  /** `credentials`: {masterKey} or {username, password}. */
  async signIn(credentials) {
    return remember(await send('POST', SESSION, { body: credentials }));
  },
  async signOut() {
    try { await send('DELETE', SESSION); } finally { csrf = null; }
  },
};

function remember(reply) {
  csrf = reply.csrf;
  const { csrf: _, ...visible } = reply;
  return visible;
}

// --- Helpers shared by the views. ---

export const classPath = (className, id) =>
  `/classes/${encodeURIComponent(className)}${id ? `/${encodeURIComponent(id)}` : ''}`;

/** Runs requests through /batch in chunks; throws the first item's error after the chunk it was in. */
export async function batch(requests, chunk = 500) {
  const results = [];
  for (let start = 0; start < requests.length; start += chunk) {
    const reply = await api.post('/batch', { requests: requests.slice(start, start + chunk) });
    results.push(...reply);
    const failed = reply.find((item) => item.error);
    if (failed) throw new ApiError(400, failed.error);
  }
  return results;
}

/** The number of objects matching `where` (never called without the user asking). */
export async function count(className, where) {
  const reply = await api.get(classPath(className), { where: emptyToUndefined(where), limit: 0, count: 1 });
  return Number(reply.count);
}

export const emptyToUndefined = (where) => (where && Object.keys(where).length ? where : undefined);
