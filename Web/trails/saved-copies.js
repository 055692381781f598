// The last friends list, threads and messages read, kept in this browser for the signed-in
// account so that they read offline (TRL-11). Signing out drops them with everything else the
// browser kept about the account (ACC-3).

import { cachedMe, signedIn, onSessionChange } from '../accounts/session.js';

const PREFIX = 'waymark.social.';

const keyFor = (/** @type {string} */ name) => {
  const me = cachedMe();
  return me ? `${PREFIX}${me.id}.${name}` : null;
};

/** @param {string} name @param {any} value */
export function keepCopy(name, value) {
  const key = keyFor(name);
  if (!key) return;
  try { localStorage.setItem(key, JSON.stringify({ savedAt: Date.now(), value })); } catch { /* full or off: it reads online only */ }
}

/** @param {string} name @returns {{savedAt: number, value: any}|null} */
export function savedCopy(name) {
  const key = keyFor(name);
  if (!key) return null;
  try { return JSON.parse(localStorage.getItem(key) ?? 'null'); } catch { return null; }
}

onSessionChange(() => {
  if (signedIn()) return;
  try {
    for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX)) localStorage.removeItem(key);
  } catch { /* storage off: nothing was kept */ }
});
