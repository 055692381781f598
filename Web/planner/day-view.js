// The day (PLN-3, PLN-5): its events in the plan's order with the trips between them and lunch;
// on today split into what is over, what comes in the next two hours ("Upcoming") and "Later".
// Any day can be opened, earlier ones too: a past day lists its events and shows where they
// were on the map, without travel.

import { el } from '../shell/dom.js';
import { problemText } from '../shell/api.js';
import { getDayPlan } from './api.js';
import { dayTitle, duration, modeWord, MODES } from './format.js';
import { localZone, todayIn, addDays, isDay, daysBetween } from './wall-time.js';
import { stepItems } from './plan-list.js';
import { numberedEvents, dayOnMap, modesDrawn } from './day-map.js';
import { modeSample } from './modes.js';
import { calendarChips } from './calendar-chips.js';
import { icon } from './icons.js';

const SOON_MS = 2 * 60 * 60 * 1000;

/** "Today", "Tomorrow", "In 3 days", "5 days ago". @param {string} day @param {string} today */
function relative(day, today) {
  const n = daysBetween(today, day);
  const rtf = new Intl.RelativeTimeFormat(navigator.language, { numeric: 'auto' });
  const text = rtf.format(n, 'day');
  return text.charAt(0).toLocaleUpperCase(navigator.language) + text.slice(1);
}

/** @param {import('./index.js').PlanContext} ctx @param {string} day */
export function dayView(ctx, day) {
  const zone = localZone();
  const today = todayIn(zone);
  const step = (n, name, label) => el('a', { class: 'plan-round', href: `/plan/day/${addDays(day, n)}`, 'aria-label': `${label}, ${dayTitle(addDays(day, n))}` }, icon(name));
  const jump = el('input', { type: 'date', class: 'plan-jump', value: day, 'aria-label': 'Go to a day',
    on: { change: () => { if (isDay(jump.value) && jump.value !== day) ctx.go(`/plan/day/${jump.value}`); } } });
  const head = el('div', 'plan-day-head',
    step(-1, 'back', 'Previous day'),
    el('div', 'plan-day-name',
      el('h2', { class: 'plan-heading', id: 'plan-day-title', tabIndex: -1 }, dayTitle(day)),
      el('p', 'plan-day-rel', relative(day, today), day !== today ? [' · ', el('a', { href: '/plan', id: 'plan-today' }, 'Back to today')] : null)),
    step(1, 'forward', 'Next day'));
  const tools = el('div', 'plan-day-tools',
    el('a', { class: 'plan-button primary', id: 'plan-new', href: `/plan/new/${day}` }, icon('plus'), 'New event'),
    jump);
  const calendars = el('ul', { class: 'plan-calendars', 'aria-label': 'Your calendars' });
  const status = el('p', { class: 'plan-status', role: 'status' }, 'Planning the day…');
  const content = el('div', 'plan-day-content');
  const root = el('div', { class: 'plan-day', dataset: { day } }, head, tools, calendars, status, content);
  let shownCalendars = 0;
  load();
  return root;

  async function load() {
    let list;
    let plan;
    try {
      [list, plan] = await Promise.all([ctx.calendars(), getDayPlan(day, zone)]);
    } catch (err) {
      if (!ctx.alive()) return;
      status.textContent = problemText(err);
      status.classList.add('plan-error');
      return;
    }
    if (!ctx.alive()) return;
    calendars.replaceChildren(...calendarChips(list));
    shownCalendars = list.calendars.length;
    render(plan);
  }

  /** @param {any} plan */
  function render(plan) {
    const numbered = numberedEvents(plan);
    const isToday = plan.day === todayIn(plan.timeZone);
    const now = Date.now();
    const view = dayOnMap(plan, ctx.calendar, { today: isToday, now });
    ctx.draw(view, { fit: true });
    Object.assign(root.dataset, { loaded: 'true', past: String(plan.past), events: String(numbered.length),
      stops: String(view.stops.length), trips: view.trips.map((t) => t.mode).join(' ') });

    if (!numbered.length) {
      status.textContent = '';
      content.replaceChildren(el('div', { class: 'plan-empty', id: 'plan-empty' },
        el('p', 'plan-empty-title', plan.past ? 'Nothing was planned for this day.' : 'Nothing planned for this day.'),
        plan.past ? null : el('p', null, 'Add an event with “New event”: a class at a set time, or something flexible such as two hours at the library sometime in the afternoon. The plan fits it in, with the trip there and time for lunch.'),
        plan.past ? null : el('p', 'muted', 'Your events go in the calendars above; “Calendars” adds more, “Travel” says how you like to get around.')));
      return;
    }

    const troubled = numbered.filter(({ step: s }) => s.arrival === 'late' || s.arrival === 'unreachable').length;
    status.textContent = [
      numbered.length === 1 ? '1 event' : `${numbered.length} events`,
      !plan.past && plan.travelMinutes ? `${duration(plan.travelMinutes)} of travel` : null,
      !plan.past && troubled ? `${troubled === 1 ? '1 event' : `${troubled} events`} you cannot reach in time` : null,
    ].filter(Boolean).join(' · ');
    status.classList.toggle('trouble', !plan.past && troubled > 0);

    const notes = [
      plan.past ? 'This day is over: the map shows where your events were; travel is not shown for past days.' : null,
      !plan.past && plan.lunchMissed ? 'The day leaves no 30 minutes for lunch in your lunch window.' : null,
      !plan.past && plan.proven === false ? 'This day is crowded: the plan is a good one, though perhaps not the best.' : null,
    ].filter(Boolean).map((t) => el('p', 'plan-note', t));

    const next = isToday ? plan.steps.find((s) => s.kind === 'event' && s.leg && Date.parse(s.leg.arrive) > now) : null;
    // A calendar's name under each event says something only when there is more than one.
    const calendar = (id) => ctx.calendar(id) && { ...ctx.calendar(id), name: shownCalendars > 1 ? ctx.calendar(id).name : null };
    const list = (steps) => el('ul', 'plan-steps', stepItems(plan, numbered, calendar, { steps, next }));
    const sections = [];
    if (isToday) {
      const over = plan.steps.filter((s) => Date.parse(s.end) <= now);
      const soon = plan.steps.filter((s) => Date.parse(s.end) > now && Date.parse(s.start) < now + SOON_MS);
      const later = plan.steps.filter((s) => Date.parse(s.start) >= now + SOON_MS);
      if (over.length) sections.push(section('earlier', 'Earlier today', list(over)));
      sections.push(section('upcoming', 'Upcoming', soon.length ? list(soon) : el('p', 'muted', 'Nothing in the next two hours.')));
      if (later.length) sections.push(section('later', 'Later', list(later)));
    } else {
      sections.push(list(plan.steps));
    }
    const modes = modesDrawn(view, [...MODES, 'none']);
    const legend = modes.length ? el('ul', { class: 'plan-legend', 'aria-label': 'Ways of travel on the map' },
      modes.map((m) => el('li', null, modeSample(m, 28), m === 'none' ? 'No way there in time' : modeWord(m)))) : null;
    content.replaceChildren(...notes, ...sections, legend);
  }
}

function section(key, title, body) {
  return el('section', { class: 'plan-section', dataset: { section: key }, 'aria-labelledby': `plan-section-${key}` },
    el('h3', { class: 'plan-subheading', id: `plan-section-${key}` }, title), body);
}
