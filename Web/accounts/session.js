// Who this browser is to the server. Two tokens are kept apart in localStorage: an account's
// session (ACC-3: it stays until sign-out) and an anonymous device identity (ACC-8), made only
// when something first needs one (permits, the weekly schedule). Registering or signing in
// sends the device token, so the server moves that device's data to the account; the device
// identity is then gone, and signing out leaves the browser with no identity at all until
// one is needed again.

import { send, ProblemError, API_CACHE } from '../shell/api.js';
import { createDevice, createAccount, createSession, endSession, getMe, isPersonal } from './api.js';

const ACCOUNT_KEY = 'waymark.account.token';
const DEVICE_KEY = 'waymark.device.token';
const ME_KEY = 'waymark.account.me';

/** @typedef {{distance: 'mi'|'km', temperature: 'F'|'C', elevation: 'ft'|'m'}} Units */
/**
 * @typedef {{id: string, kind: 'device'|'account', username?: string, email?: string, firstName?: string,
 *   lastName?: string, about: string, pictureURL: string, hasPicture: boolean, units: Units,
 *   permits: string[], createdAt: string, isOperator?: boolean}} Me
 * @typedef {{token: string, expiresAt: string, user: Me}} Session
 */

const listeners = new Set();

function read(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}
function write(key, value) {
  try {
    if (value == null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* private mode with storage off: the session lasts as long as the page */ }
}

/** @returns {Me|null} the signed-in account as last seen, for showing before the server answers */
export function cachedMe() {
  if (!read(ACCOUNT_KEY)) return null;
  try { return JSON.parse(read(ME_KEY) ?? 'null'); } catch { return null; }
}

export const signedIn = () => !!read(ACCOUNT_KEY);
export const hasDevice = () => !!read(DEVICE_KEY);
/** The token requests go with now, without making a device identity (for streams). */
export const currentToken = () => read(ACCOUNT_KEY) ?? read(DEVICE_KEY);

/** @param {() => void} fn called whenever signing in or out changes who we are */
export function onSessionChange(fn) { listeners.add(fn); }
function changed() { for (const fn of listeners) fn(); }

/** @param {Me} me */
export function rememberMe(me) {
  if (me?.kind === 'account' && signedIn()) write(ME_KEY, JSON.stringify(me));
}

/**
 * Keeps an account's session. After registering or signing in with the device token the
 * device identity is part of the account, so it is forgotten; a session from a password reset
 * absorbed nothing, so the device identity stays for after sign-out.
 * @param {Session} session @param {boolean} absorbedDevice
 */
function adopt(session, absorbedDevice) {
  write(ACCOUNT_KEY, session.token);
  if (absorbedDevice) write(DEVICE_KEY, null);
  rememberMe(session.user);
  changed();
}

/** ACC-3: sign-out deletes what this browser kept about the account. */
async function forgetAccount() {
  write(ACCOUNT_KEY, null);
  write(ME_KEY, null);
  try {
    const cache = await caches.open(API_CACHE);
    for (const request of await cache.keys()) {
      const path = new URL(request.url).pathname;
      if (isPersonal(path)) await cache.delete(request);
    }
  } catch { /* no Cache Storage: nothing kept there */ }
  changed();
}

/** The token to act with: the account's, else the device's, else a new device identity (ACC-8). */
async function token() {
  const account = read(ACCOUNT_KEY);
  if (account) return account;
  const device = read(DEVICE_KEY);
  if (device) return device;
  // Requests sent together before there is an identity share one: two would each make their
  // own, and what the first made would belong to an identity this browser no longer keeps.
  creatingDevice ??= createDevice().then((/** @type {Session} */ session) => {
    write(DEVICE_KEY, session.token);
    // Whoever waits for an identity (the bell's live stream) starts now, not at the next visit.
    queueMicrotask(changed);
    return session.token;
  }).finally(() => { creatingDevice = null; });
  return creatingDevice;
}
/** @type {Promise<string>|null} the device identity being made now */
let creatingDevice = null;

/**
 * A request as whoever this browser is. An account session that stopped working (expired, or
 * ended by a password change elsewhere) signs this browser out; a lost device identity is
 * replaced once.
 * @param {string} method @param {string} path
 * @param {{json?: any, body?: Blob, contentType?: string, headers?: Record<string, string>}} [o]
 */
export async function authed(method, path, o = {}) {
  const t = await token();
  try {
    return await send(method, path, { ...o, token: t });
  } catch (err) {
    if (!(err instanceof ProblemError) || err.status !== 401) throw err;
    if (t === read(ACCOUNT_KEY)) {
      await forgetAccount();
      throw err;
    }
    write(DEVICE_KEY, null);
    return send(method, path, { ...o, token: await token() });
  }
}

/** @param {{username: string, password: string, email?: string, firstName?: string, lastName?: string, units: Units}} registration */
export async function register(registration) {
  /** @type {Session} */
  const session = await createAccount(registration, read(DEVICE_KEY));
  adopt(session, true);
  return session.user;
}

/** @param {string} username @param {string} password */
export async function signIn(username, password) {
  /** @type {Session} */
  const session = await createSession(username, password, read(DEVICE_KEY));
  adopt(session, true);
  return session.user;
}

/** A session from elsewhere (password change or reset) replaces the current one. */
export function useSession(/** @type {Session} */ session) { adopt(session, false); }

/** Ends the session on the server when it can be reached, and locally in any case. */
export async function signOut() {
  const t = read(ACCOUNT_KEY);
  if (t) {
    try { await endSession(t); } catch { /* offline or already ended */ }
  }
  await forgetAccount();
}

/** After the account was erased on the server (ACC-5). */
export async function accountDeleted() {
  await forgetAccount();
}

/** @returns {Promise<Me>} */
export async function fetchMe() {
  const me = await getMe();
  rememberMe(me);
  return me;
}
