// Words and numbers for the Plan: clock times in the plan's or event's zone, days, durations,
// distances in the person's units, travel modes and arrival states. Nothing shown to a person
// is a raw timestamp, id or enum name.

import { defaultUnits } from '../accounts/units.js';
import { cachedMe } from '../accounts/session.js';

// Shared with Parking, which names a site's zone the same way.
export { zoneName } from '../shell/zoned-time.js';

/** The modes in the order forms and legends list them. */
export const MODES = /** @type {const} */ (['walk', 'bike', 'transit', 'car', 'rideShare']);
export const MODE_WORDS = { walk: 'Walk', bike: 'Bike', transit: 'Public transport', car: 'Car', rideShare: 'Ride share' };
/** @param {string} mode */
export const modeWord = (mode) => MODE_WORDS[mode] ?? 'Another way';

/** What each arrival state is called next to an event (its colour says the same). */
export const ARRIVAL_WORDS = { onTime: 'On time', hurry: 'Hurry', late: 'Late', unreachable: 'Cannot be reached' };

/** @param {{arrival?: string, lateMinutes?: number}} step */
export function arrivalText(step) {
  if (step.arrival === 'late' && step.lateMinutes) return `Late by ${duration(step.lateMinutes)}`;
  return ARRIVAL_WORDS[step.arrival ?? ''] ?? '';
}

const formats = new Map();
/** @param {string} key @param {Intl.DateTimeFormatOptions} options */
function format(key, options) {
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(navigator.language, options);
    formats.set(key, f);
  }
  return f;
}

/** "9:30 AM" or "09:30", as the locale writes it, in a zone. @param {string|Date} instant @param {string} timeZone */
export const clock = (instant, timeZone) => format(`clock|${timeZone}`, { timeZone, hour: 'numeric', minute: '2-digit' }).format(new Date(instant));

/** "9:30 – 10:45 AM" in a zone. @param {string|Date} start @param {string|Date} end @param {string} timeZone */
export function clockRange(start, end, timeZone) {
  const f = format(`clock|${timeZone}`, { timeZone, hour: 'numeric', minute: '2-digit' });
  try { return f.formatRange(new Date(start), new Date(end)); } catch { return `${clock(start, timeZone)} – ${clock(end, timeZone)}`; }
}

/** A wall time "HH:MM" as the locale writes it ("2:30 PM"). @param {string} hhmm */
export function wallClock(hhmm) {
  const [h, m] = hhmm.split(':').map(Number);
  return format('wall', { timeZone: 'UTC', hour: 'numeric', minute: '2-digit' }).format(new Date(Date.UTC(2020, 0, 1, h % 24, m)));
}

/** A day "YYYY-MM-DD" read at noon UTC, so no zone moves it to another date. */
const noon = (/** @type {string} */ day) => { const [y, m, d] = day.split('-').map(Number); return new Date(Date.UTC(y, m - 1, d, 12)); };

/** "Thursday, 27 November" (the year too when it is not this one). @param {string} day */
export function dayTitle(day) {
  const sameYear = day.slice(0, 4) === String(new Date().getFullYear());
  return format(`title|${sameYear}`, { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long', year: sameYear ? undefined : 'numeric' }).format(noon(day));
}

/** "Thu 27 Nov" in the locale's order. @param {string} day */
export const shortDay = (day) => format('short', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' }).format(noon(day));

/** "27 Nov – 3 Dec" for a week. @param {string} from @param {string} to */
export function dayRange(from, to) {
  const f = format('range', { timeZone: 'UTC', day: 'numeric', month: 'short' });
  try { return f.formatRange(noon(from), noon(to)); } catch { return `${f.format(noon(from))} – ${f.format(noon(to))}`; }
}

/** Weekday names, Sunday first (index 0 is the API's weekday 1). @param {'long'|'short'|'narrow'} style */
export function weekdayNames(style = 'long') {
  const f = format(`wd|${style}`, { timeZone: 'UTC', weekday: style });
  // 2023-01-01 was a Sunday.
  return Array.from({ length: 7 }, (_, i) => f.format(new Date(Date.UTC(2023, 0, 1 + i, 12))));
}

/** "25 min", "1 h 10 min", "2 h". @param {number} minutes */
export function duration(minutes) {
  const n = Math.max(0, Math.round(minutes));
  if (n < 60) return `${n} min`;
  const h = Math.floor(n / 60);
  return n % 60 ? `${h} h ${n % 60} min` : `${h} h`;
}

/** The person's distance unit: their account's setting, else their locale's. */
export const distanceUnit = () => (cachedMe()?.units ?? defaultUnits()).distance;

/** "450 m", "3.2 km", or feet and miles when the person uses miles. @param {number} metres */
export function distance(metres, unit = distanceUnit()) {
  const whole = new Intl.NumberFormat(navigator.language, { maximumFractionDigits: 0 });
  const tenth = new Intl.NumberFormat(navigator.language, { maximumFractionDigits: 1 });
  if (unit === 'mi') {
    const feet = metres / 0.3048;
    if (feet < 1000) return `${whole.format(Math.round(feet / 10) * 10)} ft`;
    const miles = metres / 1609.344;
    return `${(miles < 10 ? tenth : whole).format(miles)} mi`;
  }
  if (metres < 1000) return `${whole.format(Math.round(metres / 10) * 10)} m`;
  return `${(metres < 10_000 ? tenth : whole).format(metres / 1000)} km`;
}

/** A place's kind in words, for search results. */
export const PLACE_KINDS = { landmark: 'Landmark', campus: 'Campus', station: 'Station or stop', building: 'Building', lot: 'Parking lot' };

/** "Every week on Monday and Wednesday, until Friday, 18 December". @param {{weekdays: number[], interval?: number, until?: string, count?: number}} r */
export function repeatText(r) {
  const names = weekdayNames(r.weekdays.length > 2 ? 'short' : 'long');
  const days = new Intl.ListFormat(navigator.language, { type: 'conjunction' }).format([...r.weekdays].sort((a, b) => a - b).map((w) => names[w - 1]));
  const every = (r.interval ?? 1) === 1 ? 'Every week' : `Every ${r.interval} weeks`;
  const end = r.until ? `, until ${dayTitle(r.until)}` : r.count ? `, ${r.count === 1 ? 'once' : `${r.count} times`}` : '';
  return `${every} on ${days}${end}`;
}
