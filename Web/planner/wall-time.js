// Wall-clock days and times as the Planner's API takes them: an event is "YYYY-MM-DDTHH:MM" in
// an IANA zone (the browser's, for a new event), days are "YYYY-MM-DD", and the week starts on
// the day the person's locale starts it.

import { zonedParts, addDays } from '../shell/zoned-time.js';

export { addDays };

/** The browser's zone: where a new event's wall times are read. */
export const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Today, "YYYY-MM-DD", in a zone. @param {string} [timeZone] */
export const todayIn = (timeZone = localZone()) => zonedParts(new Date(), timeZone).date;

/** "HH:MM" now in a zone. @param {string} timeZone @param {Date} [at] */
export function clockNow(timeZone, at = new Date()) {
  const m = zonedParts(at, timeZone).minute;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** The wall time the API takes from a date input's and a time input's values. */
export const wallTime = (/** @type {string} */ date, /** @type {string} */ time) => `${date}T${time}`;

/** A wall time split back into the inputs' values. @param {string} wall "YYYY-MM-DDTHH:MM" */
export const splitWall = (wall) => ({ date: wall.slice(0, 10), time: wall.slice(11, 16) });

/** Whether a string is a real day "YYYY-MM-DD" (not 2026-02-30). */
export function isDay(/** @type {string} */ s) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s ?? '')) return false;
  const [y, m, d] = s.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** Minutes after midnight of "HH:MM" ("24:00" is 1440), or null. */
export function minuteOfDay(/** @type {string} */ hhmm) {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm ?? '');
  if (!m) return null;
  const n = Number(m[1]) * 60 + Number(m[2]);
  return Number(m[2]) < 60 && n <= 1440 ? n : null;
}

/** The weekday of a day, 1 = Sunday … 7 = Saturday (the API's numbering). */
export function weekdayOf(/** @type {string} */ day) {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 1;
}

/** The locale's first day of the week, 1 = Sunday … 7 = Saturday (Monday when it will not say). */
export function firstWeekday(locale = navigator.language) {
  try {
    const l = /** @type {any} */ (new Intl.Locale(locale));
    const info = l.getWeekInfo?.() ?? l.weekInfo;
    // Intl numbers Monday 1 … Sunday 7.
    if (info?.firstDay) return (info.firstDay % 7) + 1;
  } catch { /* an old engine or a malformed locale */ }
  return 2;
}

/** The first day of the week that holds `day`. */
export function weekOf(/** @type {string} */ day, first = firstWeekday()) {
  return addDays(day, -((weekdayOf(day) - first + 7) % 7));
}

/** Days from one to another ("2026-03-01" to "2026-03-03" is 2). */
export function daysBetween(/** @type {string} */ from, /** @type {string} */ to) {
  const t = (s) => { const [y, m, d] = s.split('-').map(Number); return Date.UTC(y, m - 1, d); };
  return Math.round((t(to) - t(from)) / 86_400_000);
}

/** The wall-clock "HH:MM" and date of an instant in a zone. @param {string|Date} instant @param {string} timeZone */
export function wallOf(instant, timeZone) {
  const p = zonedParts(new Date(instant), timeZone);
  return { date: p.date, time: `${String(Math.floor(p.minute / 60)).padStart(2, '0')}:${String(p.minute % 60).padStart(2, '0')}` };
}
