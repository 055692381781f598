// Wall-clock times in a site's time zone (DESIGN: "Sunday–Saturday", "9:00" are site-local)
// and the UTC instants the API wants, without a time-zone library: Intl knows the offsets.

/** @typedef {{date: string, minute: number, weekday: number}} ZonedParts date "YYYY-MM-DD", minute of the day, weekday 1 = Sunday … 7 */

const formatters = new Map();
function partsFormatter(timeZone) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit', weekday: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

const SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The site-local date, minute of the day and weekday of an instant. @returns {ZonedParts} */
export function zonedParts(instant, timeZone) {
  const parts = partsFormatter(timeZone).formatToParts(instant);
  const get = (t) => parts.find((p) => p.type === t)?.value ?? '';
  const hour = Number(get('hour')) % 24;
  return {
    date: `${get('year')}-${get('month')}-${get('day')}`,
    minute: hour * 60 + Number(get('minute')),
    weekday: SHORT.indexOf(get('weekday')) + 1,
  };
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
function offsetAt(ms, timeZone) {
  const parts = partsFormatter(timeZone).formatToParts(new Date(ms));
  const get = (t) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute'), get('second'));
  return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant a site-local wall-clock time names. In the hour a DST change skips, the time is
 * read with the offset from before the change (2:30 becomes 3:30), as clocks do; in the hour
 * it repeats, the first of the two.
 * @param {string} date "YYYY-MM-DD" @param {number} minute of the day (0…1440) @param {string} timeZone
 */
export function zonedInstant(date, minute, timeZone) {
  const [y, m, d] = date.split('-').map(Number);
  const wall = Date.UTC(y, m - 1, d, 0, minute);
  const before = offsetAt(wall - 86_400_000 / 2, timeZone);
  const first = wall - before;
  if (offsetAt(first, timeZone) === before) return new Date(first);
  const after = offsetAt(wall + 86_400_000 / 2, timeZone);
  const second = wall - after;
  return new Date(offsetAt(second, timeZone) === after ? second : first);
}

/** "YYYY-MM-DD" n days after a date (calendar days, not 24-hour steps). */
export function addDays(date, n) {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** "HH:MM" for an <input type="time">, and back. */
export const timeValue = (minute) => `${String(Math.floor(minute / 60) % 24).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
export function minuteOf(value) {
  const m = /^(\d{2}):(\d{2})/.exec(value ?? '');
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** "Mon, Nov 23" in the site's zone. */
export function dayText(instant, timeZone) {
  return instant.toLocaleDateString(undefined, { timeZone, weekday: 'short', month: 'short', day: 'numeric' });
}

/** "10:00 AM" in the site's zone. */
export function clockText(instant, timeZone) {
  return instant.toLocaleTimeString(undefined, { timeZone, hour: 'numeric', minute: '2-digit' });
}

/** "Mon, Nov 23 · 10:00 AM – 12:00 PM", or with both days when the range crosses midnight. */
export function rangeText(start, end, timeZone) {
  const sameDay = zonedParts(start, timeZone).date === zonedParts(new Date(end.getTime() - 1), timeZone).date;
  if (sameDay) return `${dayText(start, timeZone)} · ${clockText(start, timeZone)} – ${clockText(end, timeZone)}`;
  return `${dayText(start, timeZone)} ${clockText(start, timeZone)} – ${dayText(end, timeZone)} ${clockText(end, timeZone)}`;
}

/**
 * Whole days when both ends are midnight on the site's clock (the end exclusive): "Mon, Nov 30"
 * or "Mon, Nov 30 – Wed, Dec 2"; otherwise as `rangeText`.
 */
export function spanText(start, end, timeZone) {
  const a = zonedParts(start, timeZone), b = zonedParts(end, timeZone);
  if (a.minute !== 0 || b.minute !== 0 || end <= start) return rangeText(start, end, timeZone);
  const last = addDays(b.date, -1);
  if (last === a.date) return dayText(start, timeZone);
  return `${dayText(start, timeZone)} – ${dayText(zonedInstant(last, 720, timeZone), timeZone)}`;
}

/** "through Mon, Nov 30" when it ends at midnight, else "until Tue, Dec 1 6:00 PM". */
export function untilText(end, timeZone) {
  const b = zonedParts(end, timeZone);
  if (b.minute === 0) return `through ${dayText(zonedInstant(addDays(b.date, -1), 720, timeZone), timeZone)}`;
  return `until ${dayText(end, timeZone)} ${clockText(end, timeZone)}`;
}

/** A zone's name in words ("Pacific Time", "Central European Time") at an instant; its id, spaced, where the browser has none. @param {string} timeZone @param {string|Date} [at] */
export function zoneName(timeZone, at = new Date()) {
  try {
    const parts = new Intl.DateTimeFormat(undefined, { timeZone, timeZoneName: 'longGeneric' }).formatToParts(new Date(at));
    return parts.find((p) => p.type === 'timeZoneName')?.value ?? timeZone.replaceAll('_', ' ');
  } catch {
    return timeZone.replaceAll('_', ' ');
  }
}
