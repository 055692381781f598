// "Repeat weekly" under "Book a space" (PRK-12; UniPark's "every Tuesday 11:00–21:00 until
// June"): the days of the week and the last day, and the dates the server quoted, each with
// its price or why it cannot be booked. Every date becomes a booking of its own.

import { el } from '../accounts/forms.js';
import { formatMoney } from '../shell/money.js';
import { addDays, dayText } from '../shell/zoned-time.js';

/** How far the last date may be: the server's limit for a weekly booking. */
export const REACH_DAYS = 200;
const DEFAULT_WEEKS = 8;

/** 1 = Sunday … 7 = Saturday for a YYYY-MM-DD day. @param {string} date */
export function weekdayOf(date) {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 1;
}

/** The person's short names of the weekdays, Sunday first. */
function weekdayNames() {
  // 4 January 1970 was a Sunday.
  return [0, 1, 2, 3, 4, 5, 6].map((i) => new Date(Date.UTC(1970, 0, 4 + i)).toLocaleDateString(undefined, { timeZone: 'UTC', weekday: 'short' }));
}

/**
 * The controls; `follow(day)` keeps them on the chosen first day: its weekday ticked (alone,
 * until the person picks days), the last day after it (eight weeks on, until they pick one).
 * @param {string} idPrefix @param {string} today YYYY-MM-DD, site-local @param {() => void} changed
 */
export function repeatControls(idPrefix, today, changed) {
  const box = el('div', 'booking-repeat');
  const toggle = /** @type {HTMLInputElement} */ (el('input'));
  toggle.type = 'checkbox';
  toggle.id = `${idPrefix}-repeat`;
  toggle.name = 'repeat';
  const label = /** @type {HTMLLabelElement} */ (el('label', 'check', ''));
  label.htmlFor = toggle.id;
  label.append(toggle, ' Repeat every week');
  const details = el('div', 'booking-repeat-details');
  details.hidden = true;

  const days = el('fieldset', 'weekday-picks');
  days.append(el('legend', 'small', 'On'));
  /** @type {HTMLInputElement[]} */
  const picks = weekdayNames().map((name, i) => {
    const wrap = /** @type {HTMLLabelElement} */ (el('label', 'weekday-pick'));
    const c = /** @type {HTMLInputElement} */ (el('input'));
    c.type = 'checkbox';
    c.value = String(i + 1);
    c.name = 'weekday';
    wrap.append(c, el('span', '', name));
    days.append(wrap);
    return c;
  });
  const lastWrap = el('div', 'field inline');
  const last = /** @type {HTMLInputElement} */ (el('input'));
  last.type = 'date';
  last.name = 'repeat-until';
  last.id = `${idPrefix}-repeat-until`;
  const lastLabel = /** @type {HTMLLabelElement} */ (el('label', '', 'Until'));
  lastLabel.htmlFor = last.id;
  lastWrap.append(lastLabel, last);
  last.max = addDays(today, REACH_DAYS);
  details.append(days, lastWrap);
  box.append(label, details);

  let pickedDays = false, pickedLast = false;
  toggle.addEventListener('change', () => { details.hidden = !toggle.checked; changed(); });
  for (const c of picks) c.addEventListener('change', () => { pickedDays = true; changed(); });
  last.addEventListener('change', () => { pickedLast = true; changed(); });

  return {
    element: box,
    get on() { return toggle.checked; },
    get weekdays() { return picks.filter((c) => c.checked).map((c) => Number(c.value)); },
    get until() { return last.value; },
    /** @param {string} day the first date, YYYY-MM-DD */
    follow(day) {
      last.min = day;
      // The first date's weekday is always one of the days; the others are the person's.
      const w = weekdayOf(day);
      for (const c of picks) if (Number(c.value) === w) c.checked = true; else if (!pickedDays) c.checked = false;
      if (pickedLast && last.value >= day) return;
      const until = addDays(day, 7 * (DEFAULT_WEEKS - 1));
      last.value = until > last.max ? last.max : until;
    },
  };
}

/**
 * The quoted dates: "Thu, Dec 3 · $7.80", or the reason one cannot be booked.
 * @param {any} q a BookingSeriesQuote @param {string} timeZone
 */
export function datesList(q, timeZone) {
  const list = el('ul', 'booking-dates');
  list.dataset.testid = 'booking-dates';
  for (const d of q.occurrences) {
    const item = el('li', d.available ? '' : 'unavailable');
    const day = dayText(new Date(d.start), timeZone);
    item.append(el('span', 'booking-date', day), el('span', 'booking-date-note', d.available ? formatMoney(d.total) : d.problem ?? 'Cannot be booked.'));
    list.append(item);
  }
  return list;
}

/** "8 dates · $62.40 in all", or what stops every date. @param {any} q */
export function seriesLine(q) {
  if (!q.availableCount) return `None of the ${q.occurrences.length} dates can be booked.`;
  const n = q.availableCount, of = q.occurrences.length;
  const dates = n === of ? `${n} ${n === 1 ? 'date' : 'dates'}` : `${n} of ${of} dates`;
  return `${q.summary} · ${dates} · ${formatMoney(q.total)} in all`;
}
