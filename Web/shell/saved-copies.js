// What was last read of the person's own things (friends, conversations, messages, hike
// history, tickets), kept in this browser so that it reads offline (TRL-11, PLN-9): for the
// signed-in account, or for the device identity before there is one. Signing out drops the account's with
// everything else the browser kept about it (ACC-3).

import { cachedMe, signedIn, hasDevice, onSessionChange } from '../accounts/session.js';

const PREFIX = 'waymark.copies.';

const keyFor = (/** @type {string} */ name) => {
  const me = cachedMe();
  if (me) return `${PREFIX}${me.id}.${name}`;
  return !signedIn() && hasDevice() ? `${PREFIX}device.${name}` : null;
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
    // The device's copies went into the account with its data when it signed in, so none stays either.
    for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX)) localStorage.removeItem(key);
  } catch { /* storage off: nothing was kept */ }
});
