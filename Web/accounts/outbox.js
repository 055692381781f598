// Writes made while Waymark cannot be reached (PRK-19, QLT-1; UniPark: eventual connectivity).
// A write that fails for want of a connection is kept here, in this browser only, and sent
// when the server can be reached again: at start, when the browser says it is online, and
// every 30 seconds while something waits (Trailz' sync interval, TRL-11); each screen fetches
// again what a sent write changed. Each carries an Idempotency-Key made when the person
// acted, so a write whose answer was lost is made once however often it is sent. A write the
// server refuses (a 4xx: no space left, too little in the wallet) is kept as failed, with the
// server's words, until the person retries or discards it. Signing out drops the account's
// waiting writes with everything else the browser kept about the account (ACC-3).

import { authed, signedIn, onSessionChange } from './session.js';
import { OfflineError, ProblemError, problemText, newKey } from '../shell/api.js';

const KEY = 'waymark.outbox.v1';
const RETRY_MS = 30_000;

/**
 * @typedef {object} Write
 * @property {string} id          also the Idempotency-Key
 * @property {string} kind        what it is ("booking", "cancel-booking", "permits", …), for the screens that show it
 * @property {string} label       what the person did, in their words ("Book A · Mon 10:00 AM – 12:00 PM")
 * @property {string} method
 * @property {string} path
 * @property {any} [json]
 * @property {'account'|'device'} owner who made it: an account's writes go when it signs out
 * @property {string} createdAt
 * @property {'pending'|'failed'} state
 * @property {string} [error]     the server's words for a failed write
 * @property {any} [ref]          what the screen needs to draw it (a lot id, a range)
 * @property {string[]} [alreadyDone] problem kinds that mean the write had already been made
 */

/** @type {Set<(writes: Write[]) => void>} */
const listeners = new Set();
/** @type {Set<(write: Write, answer: any) => void>} */
const sentListeners = new Set();
let flushing = /** @type {Promise<void>|null} */ (null);
let timer = 0;

function load() {
  try { return /** @type {Write[]} */ (JSON.parse(localStorage.getItem(KEY) ?? '[]')); } catch { return []; }
}
function save(/** @type {Write[]} */ writes) {
  try {
    if (writes.length) localStorage.setItem(KEY, JSON.stringify(writes));
    else localStorage.removeItem(KEY);
  } catch { /* storage off: the queue lasts as long as the page */ memory = writes; }
  memory = writes;
  for (const fn of listeners) fn(writes);
  schedule();
}
/** @type {Write[]} */
let memory = load();

/** Everything waiting or failed, oldest first. */
export const writes = () => [...memory];

/** @param {(writes: Write[]) => void} fn */
export function onChange(fn) { listeners.add(fn); return () => listeners.delete(fn); }
/** @param {(write: Write, answer: any) => void} fn called when a queued write went through */
export function onSent(fn) { sentListeners.add(fn); return () => sentListeners.delete(fn); }

/**
 * Sends a write now; when the server cannot be reached it is queued instead.
 * @param {{kind: string, label: string, method: string, path: string, json?: any, ref?: any, key?: string,
 *   supersedes?: boolean, alreadyDone?: string[]}} w
 *   supersedes: the write replaces the whole resource (a PUT or DELETE), so earlier waiting
 *   writes to the same path are dropped rather than sent first
 * @returns {Promise<{sent: true, answer: any} | {sent: false, write: Write}>}
 */
export async function sendOrQueue(w) {
  const id = w.key ?? newKey();
  try {
    const answer = await authed(w.method, w.path, { json: w.json, headers: { 'Idempotency-Key': id } });
    return { sent: true, answer };
  } catch (err) {
    if (!(err instanceof OfflineError)) throw err;
    /** @type {Write} */
    const write = {
      id, kind: w.kind, label: w.label, method: w.method, path: w.path, json: w.json, ref: w.ref, alreadyDone: w.alreadyDone,
      owner: signedIn() ? 'account' : 'device', createdAt: new Date().toISOString(), state: 'pending',
    };
    // A PUT and a DELETE of the same resource each replace what an earlier one would leave.
    const whole = (/** @type {string} */ m) => m === 'PUT' || m === 'DELETE';
    const stale = (/** @type {Write} */ x) => x.id === id
      || (w.supersedes && x.path === w.path && (x.method === w.method || (whole(x.method) && whole(w.method))));
    save([...memory.filter((x) => !stale(x)), write]);
    return { sent: false, write };
  }
}

/** Sends what waits, oldest first; stops at the first write the network does not carry. */
export function flush() {
  if (!flushing) flushing = run().finally(() => { flushing = null; schedule(); });
  return flushing;
}

async function run() {
  for (const w of memory.filter((x) => x.state === 'pending')) {
    if (!memory.some((x) => x.id === w.id)) continue; // discarded meanwhile
    try {
      const answer = await authed(w.method, w.path, { json: w.json, headers: { 'Idempotency-Key': w.id } });
      save(memory.filter((x) => x.id !== w.id));
      for (const fn of sentListeners) fn(w, answer);
    } catch (err) {
      if (err instanceof OfflineError) return;
      if (err instanceof ProblemError && (err.status >= 500 || err.status === 429)) return;
      if (err instanceof ProblemError && w.alreadyDone?.includes(err.kind)) {
        save(memory.filter((x) => x.id !== w.id));
        for (const fn of sentListeners) fn(w, null);
        continue;
      }
      save(memory.map((x) => (x.id === w.id ? { ...x, state: /** @type {'failed'} */ ('failed'), error: problemText(err) } : x)));
    }
  }
}

/** A failed write goes back in line. @param {string} id */
export function retry(id) {
  save(memory.map((x) => (x.id === id ? { ...x, state: /** @type {'pending'} */ ('pending'), error: undefined } : x)));
  return flush();
}

/** @param {string} id */
export function discard(id) { save(memory.filter((x) => x.id !== id)); }

function schedule() {
  clearTimeout(timer);
  if (memory.some((x) => x.state === 'pending')) timer = setTimeout(flush, RETRY_MS);
}

addEventListener('online', () => { flush(); });
addEventListener('storage', (e) => {
  if (e.key !== KEY && e.key !== null) return;
  memory = load();
  for (const fn of listeners) fn(memory);
});
// Signing out: the account's writes must not be sent as whoever comes next.
onSessionChange(() => {
  if (!signedIn() && memory.some((x) => x.owner === 'account')) save(memory.filter((x) => x.owner !== 'account'));
});
if (memory.length) setTimeout(flush, 0);
