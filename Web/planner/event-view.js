// One event on one day (PLN-2, PLN-3, PLN-5): when the plan puts it and why, whether it can be
// reached in time, the trip to it, and every way there the person would take, quickest first,
// each in its mode's colour (choosing one draws it on the map) with the ways not offered and
// why; a transit trip's ticket, a ride's or shared bike's provider. Change it, delete it, or (for
// a repeating event) move or skip this day only.

import { el } from '../shell/dom.js';
import { problemText } from '../shell/api.js';
import { confirm } from '../shell/dialog.js';
import { toast } from '../shell/toast.js';
import { getEvent, getDayPlan, deleteEvent, cancelOccurrence } from './api.js';
import { dayTitle, clockRange, clock, wallClock, duration, distance, modeWord, arrivalText, repeatText, MODES } from './format.js';
import { localZone, splitWall } from './wall-time.js';
import { dayOnMap, numberedEvents } from './day-map.js';
import { modeSample } from './modes.js';
import { swatch } from './calendar-chips.js';
import { moveForm } from './move-form.js';
import { journeySteps } from './journey.js';
import { ticketSection, ticketCard, keptTicket } from './ticket.js';

/** @param {import('./index.js').PlanContext} ctx @param {string} eventId @param {string} day the day it was due on */
export function eventView(ctx, eventId, day) {
  const status = el('p', { class: 'plan-status', role: 'status' }, 'Getting the event…');
  const root = el('div', { class: 'plan-event-screen', dataset: { eventId, day } },
    el('a', { class: 'plan-back', href: `/plan/day/${day}` }, '‹ The day'), status);
  load();
  return root;

  async function load() {
    let event;
    let plan;
    try {
      event = await getEvent(eventId);
      // A moved occurrence happens on the day it was moved to.
      const moved = event.movedOccurrences.find((m) => m.day === day);
      const on = moved ? splitWall(moved.start).date : day;
      [plan] = await Promise.all([getDayPlan(on, localZone()), ctx.calendars()]);
    } catch (err) {
      if (!ctx.alive()) return;
      status.textContent = problemText(err);
      status.classList.add('plan-error');
      // Offline on the platform: the ticket bought for this trip still shows.
      const ticket = keptTicket(eventId, day);
      if (ticket) root.append(el('section', { class: 'plan-section plan-ticket-section', 'aria-label': 'Your ticket' }, ticketCard(ticket, ticket.timeZone)));
      return;
    }
    if (!ctx.alive()) return;
    render(event, plan);
  }

  /** @param {any} event @param {any} plan */
  function render(event, plan) {
    const tz = plan.timeZone;
    const numbered = numberedEvents(plan);
    const found = numbered.find(({ step }) => step.eventId === eventId && step.day === day) ?? null;
    const s = found?.step ?? null;
    const cal = ctx.calendar(event.calendarId);
    const cancelled = event.cancelledDays.includes(day);
    const past = plan.past;
    const selected = { eventId, day };
    ctx.draw(dayOnMap(plan, ctx.calendar, { selected }), { fit: true });
    root.dataset.loaded = 'true';
    root.dataset.arrival = past || !s ? 'none' : s.arrival ?? 'none';

    const when = s
      ? `${dayTitle(plan.day)} · ${clockRange(s.start, s.end, tz)}`
      : `${dayTitle(day)} · ${cancelled ? 'skipped this day' : 'not on this day'}`;
    const flexibleLine = event.durationMinutes
      ? `Flexible: ${duration(event.durationMinutes)} between ${wallRange(event)}${s ? '; the plan chose the time above' : ''}.`
      : null;
    const previous = found && found.n > 1 ? [...numbered].reverse().find(({ n, step }) => n < found.n && step.place)?.step ?? null : null;
    const head = el('div', 'plan-event-head',
      el('h2', { class: 'plan-heading', id: 'plan-event-title', tabIndex: -1 }, event.title),
      cal ? el('p', 'plan-event-calendar', swatch(cal), el('span', null, cal.name)) : null,
      el('p', 'plan-event-when', when),
      flexibleLine ? el('p', 'plan-hint', flexibleLine) : null,
      event.repeat ? el('p', 'plan-hint', repeatText(event.repeat)) : null,
      event.place ? el('p', 'plan-event-place', event.place.name) : el('p', 'plan-hint', 'No place: no trip is planned to it.'),
      s?.arrival && !past ? el('p', null, el('span', `plan-state ${s.arrival}`, arrivalText(s))) : null,
      s?.why && !past ? el('p', `plan-why${s.arrival === 'late' || s.arrival === 'unreachable' ? ' trouble' : ''}`, s.why) : null);

    const parts = [head];
    if (past) {
      parts.push(el('p', 'plan-note', 'This day is over: no travel is shown for it.'));
    } else if (s && event.place) {
      parts.push(travel(s, previous, tz));
    }
    parts.push(el('p', 'plan-hint', `Ways you allow: ${new Intl.ListFormat(navigator.language).format(MODES.filter((m) => event.modes.includes(m)).map(modeWord))}.`));
    if (event.description) parts.push(el('p', 'plan-event-notes', event.description));
    parts.push(actions(event, plan, s));
    root.replaceChildren(root.firstChild, ...parts);

    /** The trip to it: the planned one, and every other way with its time, coloured by mode. */
    function travel(step, from, zone) {
      const options = [...(step.options ?? [])].sort((a, b) => a.minutes - b.minutes);
      const longest = Math.max(1, ...options.map((x) => x.minutes));
      const planned = step.leg?.mode ?? null;
      const buttons = options.map((x) => {
        const bar = el('span', `plan-option-bar mode-${x.mode}`);
        bar.style.width = `${Math.max(8, Math.round((x.minutes / longest) * 100))}%`;
        return el('li', null, el('button', {
          type: 'button', class: `plan-option mode-${x.mode}`, dataset: { mode: x.mode }, 'aria-pressed': String(x.mode === planned),
          on: { click: (e) => {
            for (const b of root.querySelectorAll('.plan-option')) b.setAttribute('aria-pressed', String(b === e.currentTarget));
            ctx.draw(dayOnMap(plan, ctx.calendar, { selected, mode: x.mode }));
          } },
        }, el('span', 'plan-option-head', modeSample(x.mode), el('span', 'plan-option-mode', modeWord(x.mode)),
          x.mode === planned ? el('span', 'plan-tag', 'Planned') : null,
          el('span', 'plan-option-time', `${duration(x.minutes)} · ${distance(x.metres)}`)),
        el('span', 'plan-option-track', bar)));
      });
      return el('section', { class: 'plan-section', 'aria-labelledby': 'plan-travel-title' },
        el('h3', { class: 'plan-subheading', id: 'plan-travel-title' }, 'Getting there'),
        step.leg ? el('p', { class: `plan-leg-summary mode-${step.leg.mode}` }, modeSample(step.leg.mode),
          el('span', null, `${modeWord(step.leg.mode)}${from ? ` from ${from.title}` : ''}: leave at ${clock(step.leg.depart, zone)}, arrive ${clock(step.leg.arrive, zone)} (${duration(step.leg.minutes)}, ${distance(step.leg.metres)}).`))
          : el('p', 'plan-hint', from ? 'No way there is planned.' : 'The first place of the day: no trip before it.'),
        step.leg?.journey ? journeySteps(step.leg.journey, zone) : null,
        step.leg?.provider ? el('p', 'plan-actions', el('a', { class: 'plan-button', id: 'plan-open-provider', href: step.leg.provider.url,
          target: '_blank', rel: 'noopener' }, step.leg.mode === 'rideShare' ? `Book with ${step.leg.provider.name}` : `Open ${step.leg.provider.name}`)) : null,
        step.leg?.journey && step.leg.journey.rides > 0 ? ticketSection({ eventId, day, timeZone: zone, title: event.title }) : null,
        step.leg?.mode === 'transit' && !step.leg.journey ? el('p', 'plan-hint', 'An estimate: no timetable journey is known for this trip.') : null,
        options.length ? el('p', 'plan-hint', 'Every way you would take, quickest first. Choose one to see it on the map.') : null,
        options.length ? el('ul', { class: 'plan-options', 'aria-label': 'Ways there' }, buttons) : null,
        step.refusals?.length ? el('div', 'plan-refusals', el('p', 'plan-hint', 'Not offered:'),
          el('ul', null, step.refusals.map((r) => el('li', { dataset: { mode: r.mode } }, `${modeWord(r.mode)}: ${r.reason}`)))) : null);
    }
  }

  /** "9:00 AM and 12:00 PM": an event's own wall times, as the locale writes them. @param {any} event */
  function wallRange(event) {
    return `${wallClock(splitWall(event.start).time)} and ${wallClock(splitWall(event.end).time)}`;
  }

  /** @param {any} event @param {any} plan @param {any} step */
  function actions(event, plan, step) {
    const repeating = !!event.repeat;
    const mover = el('div', 'plan-move');
    const row = el('div', 'plan-actions',
      el('a', { class: 'plan-button primary', href: `/plan/event/${encodeURIComponent(eventId)}/${day}/edit` }, repeating ? 'Change every time' : 'Change'),
      repeating && step ? el('button', { type: 'button', class: 'plan-button', id: 'plan-move-day', on: { click: () => {
        mover.replaceChildren(moveForm(ctx, event, day, step, plan.timeZone, () => mover.replaceChildren()));
      } } }, 'Move this day') : null,
      repeating && step ? el('button', { type: 'button', class: 'plan-button', on: { click: skip } }, 'Skip this day') : null,
      el('button', { type: 'button', class: 'plan-button danger', id: 'plan-delete-event', on: { click: remove } }, 'Delete'));
    return el('div', null, row, mover);

    async function skip() {
      const sure = await confirm({ name: 'skip-occurrence', title: `Skip “${event.title}” on ${dayTitle(day)}?`,
        message: 'Only this day is skipped; the other days stay.', confirm: 'Skip this day' });
      if (!sure) return;
      try {
        await cancelOccurrence(eventId, day);
        toast('Skipped this day');
        ctx.go(`/plan/day/${plan.day}`, { replace: true });
      } catch (err) { toast(problemText(err), 5000); }
    }

    async function remove() {
      const sure = await confirm({ name: 'delete-event', title: `Delete “${event.title}”?`,
        message: repeating ? 'Every day it repeats on is deleted. To drop one day only, skip that day instead.' : 'It is removed from your plan.',
        confirm: 'Delete', danger: true });
      if (!sure) return;
      try {
        await deleteEvent(eventId);
        toast('Event deleted');
        ctx.go(`/plan/day/${plan.day}`, { replace: true });
      } catch (err) { toast(problemText(err), 5000); }
    }
  }
}
