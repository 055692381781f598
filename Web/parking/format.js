// Words and numbers for lots: permits, opening hours, prices, weekdays. Weekdays are the
// API's 1 = Sunday … 7 = Saturday and times are minutes after site-local midnight.

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** A booking's state in words. */
export const BOOKING_STATE_TEXT = Object.freeze({
  booked: 'Booked', checkedIn: 'Checked in', forfeited: 'Forfeited', cancelled: 'Cancelled', completed: 'Completed',
});
const SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** Site-local weekday (1–7), minute of the day and hour, for a time zone. */
export function siteNow(timeZone, date = new Date()) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, weekday: 'short', hour: 'numeric', minute: 'numeric', hourCycle: 'h23',
  }).formatToParts(date);
  const get = (t) => parts.find((p) => p.type === t)?.value ?? '';
  const weekday = SHORT.indexOf(get('weekday')) + 1;
  const hour = Number(get('hour')) % 24;
  return { weekday, hour, minute: hour * 60 + Number(get('minute')) };
}

export function timeOfDay(minute) {
  if (minute === 1440 || minute === 0) return 'midnight';
  const d = new Date(Date.UTC(2020, 0, 1, Math.floor(minute / 60), minute % 60));
  return d.toLocaleTimeString(undefined, { hour: 'numeric', minute: minute % 60 ? '2-digit' : undefined, timeZone: 'UTC' });
}

/** "6 AM", "12 PM" for an hour of the day. */
export function hourLabel(hour) {
  return new Date(Date.UTC(2020, 0, 1, hour)).toLocaleTimeString(undefined, { hour: 'numeric', timeZone: 'UTC' });
}

/** "Mon–Fri", "Sat, Sun", "Every day", in Monday-first order. */
export function weekdaySpan(days) {
  const order = [2, 3, 4, 5, 6, 7, 1];
  const set = new Set(days);
  if (set.size === 7) return 'Every day';
  const runs = [];
  let run = [];
  for (const d of order) {
    if (set.has(d)) run.push(d);
    else if (run.length) { runs.push(run); run = []; }
  }
  if (run.length) runs.push(run);
  return runs.map((r) => (r.length >= 3 ? `${SHORT[r[0] - 1]}–${SHORT[r[r.length - 1] - 1]}` : r.map((d) => SHORT[d - 1]).join(', '))).join(', ');
}

export function timeSpan(start, end) {
  if (start === 0 && end >= 1440) return 'all day';
  return `${timeOfDay(start)}–${timeOfDay(end)}`;
}

/** The permits that apply now, or null when none is needed. */
export function permitsNow(rules, now) {
  const applying = rules.filter((r) => r.weekdays.includes(now.weekday) && now.minute >= r.startMinute && now.minute < r.endMinute);
  if (!applying.length) return null;
  return [...new Set(applying.flatMap((r) => r.permits))];
}

export function isOpen(hours, now) {
  if (!hours?.length) return true;
  return hours.some((h) => h.weekdays.includes(now.weekday) && now.minute >= h.openMinute && now.minute < h.closeMinute);
}

export function hoursText(hours) {
  if (!hours?.length) return 'Open 24 hours';
  if (hours.length === 1 && hours[0].weekdays.length === 7 && hours[0].openMinute === 0 && hours[0].closeMinute >= 1440) return 'Open 24 hours';
  return hours.map((h) => `${weekdaySpan(h.weekdays)} ${timeSpan(h.openMinute, h.closeMinute)}`).join(' · ');
}

export function priceText(price) {
  if (!price) return '';
  const money = (cents) => new Intl.NumberFormat(undefined, { style: 'currency', currency: price.currency || 'USD' }).format(cents / 100);
  const parts = [];
  if (price.hourlyCents != null) parts.push(`${money(price.hourlyCents)} per hour`);
  if (price.dailyMaxCents != null) parts.push(`${money(price.dailyMaxCents)} daily max`);
  return parts.join(' · ') || 'Free';
}

export function congestionText(level, free) {
  if (level === 'red') return free === 0 ? 'Full' : 'Nearly full';
  if (level === 'yellow') return 'Filling up';
  return 'Plenty of space';
}

export const number = (n) => new Intl.NumberFormat().format(n);

/** "5:06 PM" today, or "Sat 5:06 PM" on another day. */
export function clockTime(date, now = new Date()) {
  const sameDay = date.toDateString() === now.toDateString();
  return date.toLocaleString(undefined, sameDay ? { hour: 'numeric', minute: '2-digit' } : { weekday: 'short', hour: 'numeric', minute: '2-digit' });
}

/** "just now", "3 min ago", "2 hr ago", "3 days ago". */
export function age(date, now = new Date()) {
  const s = Math.max(0, (now.getTime() - date.getTime()) / 1000);
  if (s < 45) return 'just now';
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'short' });
  if (s < 3600) return rtf.format(-Math.round(s / 60), 'minute');
  if (s < 86400 * 2) return rtf.format(-Math.round(s / 3600), 'hour');
  return rtf.format(-Math.round(s / 86400), 'day');
}
