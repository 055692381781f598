// Where the person is, for time to leave (PLN-7; Travlendar+ D6): only when they switched it on
// in Travel, only while the app is open, at most every two hours or after a move of more than
// 500 m. The server keeps the latest position only, until the end of the day; switching off
// forgets it there too.

import { reportPosition, forgetPosition } from './api.js';
import { metresBetween } from '../parking/hold-format.js';
import { SETTING, reporting } from './leave-setting.js';

export { reporting };

const LAST = 'waymark.plan.leaveFromHere.sent';
const EVERY = 2 * 3600 * 1000;
const MOVE = 500;

let watch = /** @type {number|null} */ (null);

/** Starts watching where the device is, when the person switched it on; safe to call again. */
export function resumeReporting() {
  if (!reporting() || watch != null || !('geolocation' in navigator)) return;
  watch = navigator.geolocation.watchPosition(sent, () => {}, { enableHighAccuracy: false, maximumAge: 60_000, timeout: 60_000 });
}

/** Switches it on (the browser asks for the permission) or off (the server forgets the position). @param {boolean} on */
export async function setReporting(on) {
  if (on) {
    localStorage.setItem(SETTING, 'on');
    resumeReporting();
    return;
  }
  localStorage.removeItem(SETTING);
  localStorage.removeItem(LAST);
  if (watch != null) navigator.geolocation.clearWatch(watch);
  watch = null;
  await forgetPosition();
}

/** @param {GeolocationPosition} fix */
async function sent(fix) {
  const here = { lat: fix.coords.latitude, lon: fix.coords.longitude };
  /** @type {{lat: number, lon: number, at: number}|null} */
  let last = null;
  try { last = JSON.parse(localStorage.getItem(LAST) ?? 'null'); } catch { last = null; }
  const now = Date.now();
  if (last && now - last.at < EVERY && metresBetween(last, here) < MOVE) return;
  try {
    await reportPosition(here.lat, here.lon, Intl.DateTimeFormat().resolvedOptions().timeZone);
    localStorage.setItem(LAST, JSON.stringify({ ...here, at: now }));
  } catch { /* offline or signed out: the next fix tries again */ }
}
