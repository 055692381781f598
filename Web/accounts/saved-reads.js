// A person's own reads kept in this browser (PRK-19, QLT-1): bookings, the wallet, the weekly
// schedule, permits and the inbox read offline from the last copy, and say how old it is. The
// copies live in localStorage beside the session, one per address, and go when the account
// signs out or another signs in (ACC-3); the service worker never sees them, since it leaves
// requests with credentials alone.

import { OfflineError } from '../shell/api.js';
import { authed, signedIn, onSessionChange } from './session.js';
import { age } from '../parking/format.js';

const PREFIX = 'waymark.saved.';
const SAVED_AT = Symbol('savedAt');

const keyFor = (path) => `${PREFIX}${signedIn() ? 'account' : 'device'}:${path}`;

/**
 * A GET of one person's data: the server's answer, kept; offline, the kept copy, marked with
 * when it was saved (`savedAt`). Without a copy the OfflineError stands.
 * @param {string} path
 */
export async function savedRead(path) {
  watchSession();
  const key = keyFor(path);
  try {
    const data = await authed('GET', path);
    // An answer that arrives after a sign-out belongs to nobody here any more.
    if (keyFor(path) === key) {
      try { localStorage.setItem(key, JSON.stringify({ savedAt: new Date().toISOString(), data })); } catch { /* storage full or off */ }
    }
    return data;
  } catch (err) {
    if (!(err instanceof OfflineError)) throw err;
    let saved = null;
    try { saved = JSON.parse(localStorage.getItem(key) ?? 'null'); } catch { /* unreadable: as if none */ }
    if (!saved?.data || typeof saved.data !== 'object') throw err;
    Object.defineProperty(saved.data, SAVED_AT, { value: saved.savedAt, enumerable: false });
    return saved.data;
  }
}

/** When an answer of `savedRead` was saved, if it is a copy; null when it is the server's. */
export const savedAt = (data) => data?.[SAVED_AT] ?? null;

/** "Offline · saved 12 min ago", or '' when the data is the server's. */
export function savedNote(data) {
  const at = savedAt(data);
  return at ? `Offline · saved ${age(new Date(at))}. Changes you make are sent when Waymark can be reached.` : '';
}

let watching = false;
/** Registered on first use, not at load: this module and the session's import each other. */
function watchSession() {
  if (watching) return;
  watching = true;
  onSessionChange(() => {
    try {
      // Keys first: the storage's order may change as items go.
      const keys = Object.keys(localStorage).filter((k) => k.startsWith(`${PREFIX}account:`));
      for (const k of keys) localStorage.removeItem(k);
    } catch { /* storage off: nothing kept */ }
  });
}
