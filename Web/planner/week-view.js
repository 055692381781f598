// The week (PLN-2, PLN-3): every occurrence of the week's seven days, day by day from the day
// the person's locale starts a week on, each with its calendar's colour and its times in the
// event's own zone; a day's heading opens that day's plan, an occurrence its event. The map
// shows where the week's events are, those of days gone by faint.

import { el } from '../shell/dom.js';
import { problemText } from '../shell/api.js';
import { listOccurrences } from './api.js';
import { dayTitle, dayRange, clockRange, duration, zoneName } from './format.js';
import { localZone, todayIn, addDays, weekOf, wallOf } from './wall-time.js';
import { swatch } from './calendar-chips.js';
import { NOTHING } from './layers.js';
import { icon } from './icons.js';

/** @param {import('./index.js').PlanContext} ctx @param {string} day any day of the week */
export function weekView(ctx, day) {
  const first = weekOf(day);
  const last = addDays(first, 6);
  const today = todayIn(localZone());
  const step = (n, name, label) => el('a', { class: 'plan-round', href: `/plan/week/${addDays(first, n)}`, 'aria-label': `${label}, ${dayRange(addDays(first, n), addDays(first, n + 6))}` }, icon(name));
  const status = el('p', { class: 'plan-status', role: 'status' }, 'Reading your week…');
  const days = el('div', 'plan-week-days');
  const thisWeek = weekOf(today);
  const root = el('div', { class: 'plan-week', dataset: { from: first, to: last } },
    el('div', 'plan-day-head',
      step(-7, 'back', 'Previous week'),
      el('div', 'plan-day-name',
        el('h2', { class: 'plan-heading', id: 'plan-week-title', tabIndex: -1 }, dayRange(first, last)),
        el('p', 'plan-day-rel', first === thisWeek ? 'This week' : first === addDays(thisWeek, 7) ? 'Next week' : first === addDays(thisWeek, -7) ? 'Last week' : '')),
      step(7, 'forward', 'Next week')),
    first !== thisWeek ? el('div', 'plan-day-tools', el('a', { class: 'plan-button', href: '/plan/week' }, 'This week')) : null,
    status, days);
  ctx.draw(NOTHING);
  load();
  return root;

  async function load() {
    let list;
    let occurrences;
    try {
      [list, { occurrences }] = await Promise.all([ctx.calendars(), listOccurrences(first, last)]);
    } catch (err) {
      if (!ctx.alive()) return;
      status.textContent = problemText(err);
      status.classList.add('plan-error');
      return;
    }
    if (!ctx.alive()) return;
    const byDay = new Map();
    for (const o of occurrences) {
      // The day it happens on, in its own zone (a moved occurrence may be on another day than it was due).
      const on = wallOf(o.start, o.timeZone).date;
      if (!byDay.has(on)) byDay.set(on, []);
      byDay.get(on).push(o);
    }
    status.textContent = occurrences.length === 0 ? 'Nothing planned this week. Open a day to add an event.'
      : occurrences.length === 1 ? '1 event this week' : `${occurrences.length} events this week`;
    root.dataset.loaded = 'true';
    // Where the week's events are, each marked with its day of the month (as the list's headings
    // name it); a week has no trips of its own.
    const dayNumber = new Intl.NumberFormat(navigator.language);
    ctx.draw({ trips: [], place: null, stops: occurrences.filter((o) => o.place).map((o) => {
      const on = wallOf(o.start, o.timeZone).date;
      const c = ctx.calendar(o.calendarId);
      return { label: dayNumber.format(Number(on.slice(8))), lat: o.place.latitude, lon: o.place.longitude, fill: c?.colour ?? '#1a73e8',
        text: c?.textColour ?? '#ffffff', title: o.title, eventId: o.eventId, day: o.day, faded: on < today };
    }) }, { fit: true });
    days.replaceChildren(...Array.from({ length: 7 }, (_, i) => {
      const d = addDays(first, i);
      const items = (byDay.get(d) ?? []).sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
      return el('section', { class: `plan-week-day${d === today ? ' today' : ''}`, dataset: { day: d }, 'aria-labelledby': `plan-week-${d}` },
        el('h3', { class: 'plan-subheading', id: `plan-week-${d}` },
          el('a', { href: `/plan/day/${d}`, class: 'plan-week-link' }, dayTitle(d)), d === today ? el('span', 'plan-today-tag', 'Today') : null),
        items.length ? el('ul', 'plan-week-list', items.map((o) => occurrenceItem(o, ctx.calendar(o.calendarId))))
          : el('p', 'plan-week-none', 'Nothing planned'));
    }));
  }
}

/** @param {any} o a PlannerOccurrence @param {any} cal */
function occurrenceItem(o, cal) {
  const when = o.durationMinutes
    ? `${duration(o.durationMinutes)} within ${clockRange(o.start, o.end, o.timeZone)}`
    : clockRange(o.start, o.end, o.timeZone);
  const tags = [o.durationMinutes ? 'Flexible' : null, o.repeats ? 'Repeats' : null, o.moved ? 'Moved this week' : null,
    o.timeZone !== localZone() ? zoneName(o.timeZone, o.start) : null].filter(Boolean);
  return el('li', { class: 'plan-occ', dataset: { eventId: o.eventId, day: o.day } },
    el('a', { class: 'plan-occ-link', href: `/plan/event/${encodeURIComponent(o.eventId)}/${o.day}` },
      cal ? swatch(cal, 'plan-occ-bar') : null,
      el('span', 'plan-event-main',
        el('span', 'plan-time', when),
        el('span', 'plan-title', o.title),
        o.place ? el('span', 'plan-where', o.place.name) : null,
        tags.length ? el('span', 'plan-tags', tags.join(' · ')) : null)));
}
