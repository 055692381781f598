// The day as a list (PLN-3): each event at the time the plan gives it, numbered as on the map,
// with the trip that leads to it (mode in words and as a line sample, minutes, distance, when to
// leave), its arrival state in words and colour (green on time, yellow hurry, red late or
// cannot be reached) with the plan's reason, and lunch where the plan keeps it.

import { el } from '../shell/dom.js';
import { clock, clockRange, duration, distance, modeWord, arrivalText } from './format.js';
import { modeSample } from './modes.js';
import { wallOf } from './wall-time.js';
import { icon } from './icons.js';
import { firstRideText, linesText } from './journey.js';

/**
 * @param {any} plan a DayPlan
 * @param {{n: number, step: any}[]} numbered its events, numbered
 * @param {(calendarId: string) => any} calendar
 * @param {{steps: any[], next?: any}} o steps: which of the plan's steps to list; next: the step the person goes to now
 */
export function stepItems(plan, numbered, calendar, o) {
  const tz = plan.timeZone;
  const numberOf = new Map(numbered.map(({ step, n }) => [step, n]));
  const out = [];
  for (const s of o.steps) {
    if (s.kind === 'lunch') { out.push(lunchItem(s, tz)); continue; }
    if (s.leg && !plan.past) out.push(legItem(s.leg, tz, s === o.next));
    out.push(eventItem(s, numberOf.get(s) ?? 0, calendar(s.calendarId), tz, plan.past));
  }
  return out;
}

/** Where a step sits on the plan's clock, for tests and styles: "HH:MM" in the plan's zone. */
const wallData = (s, tz) => ({ start: wallOf(s.start, tz).time, end: wallOf(s.end, tz).time });

/** @param {any} leg @param {string} tz @param {boolean} next */
function legItem(leg, tz, next) {
  const lines = leg.journey ? linesText(leg.journey) : '';
  const what = `${modeWord(leg.mode)} · ${duration(leg.minutes)} · ${lines || distance(leg.metres)}`;
  const when = `${next ? 'Next: leave' : 'Leave'} at ${clock(leg.depart, tz)}, arrive ${clock(leg.arrive, tz)}`
    + (leg.journey && lines ? ` · ${firstRideText(leg.journey, tz)}` : '');
  return el('li', { class: `plan-leg mode-${leg.mode}${next ? ' next' : ''}`, dataset: { mode: leg.mode, minutes: String(leg.minutes) } },
    modeSample(leg.mode),
    el('span', 'plan-leg-text', el('span', 'plan-leg-what', what), el('span', 'plan-leg-when', when)));
}

/** @param {any} s @param {string} tz */
function lunchItem(s, tz) {
  return el('li', { class: 'plan-step plan-lunch', dataset: { kind: 'lunch', ...wallData(s, tz) } },
    el('span', 'plan-lunch-mark', icon('lunch')),
    el('span', 'plan-lunch-text', el('span', 'plan-title', 'Lunch'), el('span', 'plan-time', clockRange(s.start, s.end, tz))));
}

/** @param {any} s @param {number} n @param {any} cal @param {string} tz @param {boolean} past */
function eventItem(s, n, cal, tz, past) {
  const arrival = past ? '' : s.arrival ?? '';
  const trouble = arrival === 'late' || arrival === 'unreachable';
  const num = el('span', { class: 'plan-num', 'aria-hidden': 'true' }, String(n));
  if (cal) { num.style.background = cal.colour; num.style.color = cal.textColour; }
  const state = arrival ? el('span', `plan-state ${arrival}`, arrivalText(s)) : null;
  const tags = [s.flexible ? 'Flexible: placed by the plan' : null, s.lunchBefore && !past ? 'Lunch on arrival' : null].filter(Boolean);
  return el('li', { class: `plan-step plan-event${arrival ? ` arrival-${arrival}` : ''}`, dataset: {
    kind: 'event', eventId: s.eventId, day: s.day, arrival: arrival || 'none', flexible: String(!!s.flexible), ...wallData(s, tz),
  } }, el('a', { class: 'plan-event-link', href: `/plan/event/${encodeURIComponent(s.eventId)}/${s.day}` },
    num,
    el('span', 'plan-event-main',
      el('span', 'plan-event-top', el('span', 'plan-time', clockRange(s.start, s.end, tz)), state),
      el('span', 'plan-title', s.title ?? 'Untitled'),
      s.place ? el('span', 'plan-where', s.place.name) : null,
      cal?.name ? el('span', 'plan-calendar-name', cal.name) : null,
      tags.length ? el('span', 'plan-tags', tags.join(' · ')) : null,
      !past && s.why ? el('span', `plan-why${trouble ? ' trouble' : ''}`, s.why) : null)));
}
