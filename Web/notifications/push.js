// Alerts on this device (PRK-22): Web Push for this browser, turned on and off in the inbox,
// and which kinds of notification the server pushes to the person. The browser's push service
// carries each one to the service worker (sw.js), which shows it even when Waymark is closed.
// "On" means both: this browser holds a push subscription, and the server has it for this
// person. Signing out stops this browser's alerts (they were the person's).

import { el } from '../accounts/forms.js';
import { signedIn, currentToken, onSessionChange } from '../accounts/session.js';
import { problemText, ProblemError } from '../shell/api.js';
import {
  getPushKey, listPushSubscriptions, addPushSubscription, removePushSubscription,
  getPushPreferences, setPushPreferences,
} from './api.js';

/** How long the browser may take to reach its push service before we say it can't. */
const SUBSCRIBE_MS = 20_000;
/** How long the service worker may take to be ready (it installs on the first visit). */
const WORKER_MS = 10_000;

/** @typedef {'checking'|'unsupported'|'denied'|'unreachable'|'on'|'off'|'working'|'error'} PushState */

/** What each state tells the person; 'working' and 'error' bring their own words. */
const SAY = {
  checking: 'Checking this browser…',
  unsupported: 'This browser can’t show alerts from Waymark. Your inbox still lists everything. '
    + 'On an iPhone or iPad, add Waymark to the Home Screen (Share, then “Add to Home Screen”) and open it from there.',
  denied: 'Notifications from Waymark are blocked in this browser. To allow them, open the site’s settings '
    + '(the icon at the left of the address bar), set Notifications to Allow, then reload this page.',
  unreachable: 'This browser’s notification service can’t be reached right now, so alerts stay off. Try again later.',
  on: 'On. This browser shows Waymark’s alerts, even when Waymark is closed.',
  off: 'Off. Turn on to be told on this device, even when Waymark is closed.',
};

export function pushSupported() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window
    && 'showNotification' in ServiceWorkerRegistration.prototype;
}

/**
 * @template T
 * @param {Promise<T>} promise @param {number} ms
 * @param {(late: T) => void} [onLate] what to do with an answer that comes after we gave up
 * @returns {Promise<T>}
 */
function within(promise, ms, onLate) {
  return new Promise((resolve, reject) => {
    let over = false;
    const timer = setTimeout(() => { over = true; reject(new Error('timeout')); }, ms);
    promise.then((v) => {
      if (over) onLate?.(v); else { clearTimeout(timer); resolve(v); }
    }, (e) => { clearTimeout(timer); reject(e); });
  });
}

/** @returns {Promise<ServiceWorkerRegistration>} */
const workerReady = () => within(navigator.serviceWorker.ready, WORKER_MS);

/** The key as the server gives it (base64url, no padding) as bytes. @param {string} text */
function keyBytes(text) {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=');
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/** @param {ArrayBuffer|null|undefined} a @param {Uint8Array} b */
function sameKey(a, b) {
  if (!a || a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a);
  return x.every((v, i) => v === b[i]);
}

/** A refusal in words for this screen. @param {unknown} err */
function refusal(err) {
  if (err instanceof ProblemError && err.kind === 'push-endpoint-not-allowed') {
    return 'Waymark can’t send alerts through this browser’s notification service, so alerts stay off here. Your inbox still lists everything.';
  }
  return problemText(err);
}

/**
 * Signing out, or an identity that ended, stops this browser's alerts: the subscription is
 * dropped, so its address stops working and the server forgets it the next time it sends.
 * Signing in keeps them: the server moves a guest's subscription to the account.
 */
export function stopPushOnSignOut() {
  let wasSignedIn = signedIn();
  onSessionChange(async () => {
    const signedOut = wasSignedIn && !signedIn();
    wasSignedIn = signedIn();
    if (!(signedOut || !currentToken()) || !pushSupported()) return;
    try {
      const registration = await navigator.serviceWorker.getRegistration();
      const subscription = await registration?.pushManager.getSubscription();
      await subscription?.unsubscribe();
    } catch { /* nothing to stop */ }
  });
}

/** The inbox's "Alerts on this device" section, for anyone the server knows: a guest's hold asks "Was it you?" too. */
export function pushSection() {
  const section = el('section', { class: 'acc-section push', 'aria-labelledby': 'push-title', dataset: { testid: 'push' } });
  const label = el('span', 'push-switch-label', 'Show alerts on this device');
  const toggle = el('button', {
    type: 'button', class: 'push-switch', role: 'switch', 'aria-checked': 'false', 'aria-describedby': 'push-state',
    dataset: { testid: 'push-switch' },
  }, label, el('span', { class: 'push-switch-track', 'aria-hidden': 'true' }, el('span', 'push-switch-thumb')));
  const said = el('p', { class: 'push-state', id: 'push-state', role: 'status', dataset: { testid: 'push-state' } });
  section.append(el('h3', { id: 'push-title' }, 'Alerts on this device'), toggle, said, kindsPart());

  /** @type {PushState} */
  let state = 'checking';
  /** @param {PushState} next @param {string} [text] */
  function show(next, text) {
    state = next;
    section.dataset.state = next;
    said.textContent = text ?? SAY[next] ?? '';
    toggle.setAttribute('aria-checked', String(next === 'on'));
    toggle.disabled = ['checking', 'unsupported', 'denied', 'working'].includes(next);
    toggle.hidden = next === 'unsupported';
  }

  async function check() {
    if (!pushSupported()) return show('unsupported');
    if (Notification.permission === 'denied') return show('denied');
    try {
      const registration = await workerReady();
      const subscription = await registration.pushManager.getSubscription();
      if (!subscription || Notification.permission !== 'granted') return show('off');
      const { subscriptions } = await listPushSubscriptions();
      return show(subscriptions.some((s) => s.endpoint === subscription.endpoint) ? 'on' : 'off');
    } catch (err) {
      return show('error', problemText(err));
    }
  }

  async function turnOn() {
    // The browser asks only in answer to a press, so its question comes before anything else.
    const asked = Notification.permission === 'granted' ? Promise.resolve('granted') : Notification.requestPermission();
    show('working', 'Turning on…');
    const permission = await asked;
    if (permission === 'denied') return show('denied');
    if (permission !== 'granted') return show('off', 'Off. The browser’s question was closed without an answer; turn on again to be asked once more.');
    /** @type {PushSubscription|null} */
    let made = null;
    try {
      const registration = await workerReady();
      const key = keyBytes((await getPushKey()).publicKey);
      let subscription = await registration.pushManager.getSubscription();
      // One made for another key (the server's key changed) can't be used: a new one replaces it.
      if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
        await subscription.unsubscribe();
        subscription = null;
      }
      if (!subscription) {
        try {
          subscription = made = await within(
            registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }),
            SUBSCRIBE_MS, (late) => { late.unsubscribe().catch(() => {}); });
        } catch (err) {
          const blocked = /** @type {any} */ (err)?.name === 'NotAllowedError' && Notification.permission !== 'granted';
          return show(blocked ? 'denied' : 'unreachable');
        }
      }
      await addPushSubscription(subscription.toJSON());
      return show('on');
    } catch (err) {
      // Nothing half done: a subscription the server did not take is not kept.
      if (made) await made.unsubscribe().catch(() => {});
      return show('error', refusal(err));
    }
  }

  async function turnOff() {
    show('working', 'Turning off…');
    try {
      const registration = await workerReady();
      const subscription = await registration.pushManager.getSubscription();
      if (subscription) {
        try {
          const { subscriptions } = await listPushSubscriptions();
          const mine = subscriptions.find((s) => s.endpoint === subscription.endpoint);
          if (mine) await removePushSubscription(mine.id);
        } catch { /* unreachable: once dropped below, the server forgets it the next time it sends */ }
        await subscription.unsubscribe();
      }
      return show('off');
    } catch (err) {
      return show('error', problemText(err));
    }
  }

  toggle.addEventListener('click', () => {
    if (state === 'on') turnOff(); else turnOn();
  });
  show('checking');
  check();
  return section;
}

/** "Tell me when…": one checkbox per kind the server pushes, saved as soon as it changes. */
function kindsPart() {
  const set = el('fieldset', { class: 'push-kinds', disabled: true, dataset: { testid: 'push-kinds' } },
    el('legend', null, 'Tell me when…'));
  const hint = el('p', 'field-hint', 'For every device where alerts are on. Your inbox always lists everything.');
  const status = el('p', { class: 'save-status', role: 'status', dataset: { testid: 'push-kinds-status' } }, 'Loading…');
  /** @type {Map<string, HTMLInputElement>} */
  const boxes = new Map();
  /** @type {Map<string, boolean>} */
  let saved = new Map();

  /** @param {{kind: string, label: string, enabled: boolean}[]} kinds */
  function showSaved(kinds) {
    saved = new Map(kinds.map((k) => [k.kind, k.enabled]));
    for (const k of kinds) {
      let box = boxes.get(k.kind);
      if (!box) {
        box = el('input', { type: 'checkbox', name: 'push-kind', value: k.kind, dataset: { kind: k.kind } });
        boxes.set(k.kind, box);
        set.append(el('label', 'push-kind', box, el('span', null, k.label)));
      }
      box.checked = k.enabled;
    }
  }

  getPushPreferences().then((r) => {
    showSaved(r.kinds);
    set.disabled = false;
    status.textContent = '';
  }).catch((err) => { status.textContent = problemText(err); });

  // One change at a time, in the order they were made.
  let pending = Promise.resolve();
  set.addEventListener('change', (e) => {
    const box = /** @type {HTMLInputElement} */ (e.target);
    const change = { kind: box.value, enabled: box.checked };
    status.textContent = 'Saving…';
    pending = pending.then(async () => {
      try {
        showSaved((await setPushPreferences([change])).kinds);
        status.textContent = 'Saved';
      } catch (err) {
        box.checked = saved.get(change.kind) ?? !change.enabled;
        status.textContent = problemText(err);
      }
    });
  });
  return el('div', 'push-kinds-part', set, hint, status);
}
