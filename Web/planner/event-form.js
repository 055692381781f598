// A new event or a change to one (PLN-2): title, calendar (the one used last, for a new event),
// the day and times in the person's locale (date and time inputs), fixed or flexible (a length
// the plan places inside the window), a weekly repeat, the place and the ways to get there.
// Every field is checked as the person types; Save waits until all are right. The answer's
// warnings (an event that cannot be reached in time) are shown at once.

import { el } from '../shell/dom.js';
import { problemText } from '../shell/api.js';
import { toast } from '../shell/toast.js';
import { createEvent, updateEvent, getEvent } from './api.js';
import { checkEvent, eventInput } from './event-checks.js';
import { field, group, checkbox, liveChecks } from './form-parts.js';
import { placeField } from './place-field.js';
import { swatch } from './calendar-chips.js';
import { MODES, modeWord, weekdayNames, zoneName, dayTitle } from './format.js';
import { localZone, todayIn, clockNow, splitWall, weekdayOf, firstWeekday, isDay } from './wall-time.js';
import { NOTHING } from './layers.js';

/** The next whole hour from now (for today's new event), else 09:00. @param {string} day */
function defaultStart(day, zone) {
  if (day !== todayIn(zone)) return '09:00';
  const h = Number(clockNow(zone).slice(0, 2)) + 1;
  return h <= 22 ? `${String(h).padStart(2, '0')}:00` : '22:00';
}

const later = (/** @type {string} */ hhmm, /** @type {number} */ minutes) => {
  const m = Math.min(23 * 60 + 59, Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5)) + minutes);
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

/**
 * @param {import('./index.js').PlanContext} ctx
 * @param {{day?: string, eventId?: string, occurrenceDay?: string}} o a new event on `day`, or a change to `eventId`
 */
export function eventForm(ctx, o) {
  const root = el('div', { class: 'plan-form-screen' },
    el('h2', { class: 'plan-heading', id: 'plan-form-title', tabIndex: -1 }, o.eventId ? 'Change the event' : 'New event'),
    el('p', { class: 'plan-status', role: 'status' }, 'Getting your calendars…'));
  ctx.draw(NOTHING);
  (async () => {
    try {
      const [list, event] = await Promise.all([ctx.calendars(), o.eventId ? getEvent(o.eventId) : null]);
      if (ctx.alive()) root.replaceChildren(root.firstChild, build(list, event));
    } catch (err) {
      if (ctx.alive()) root.replaceChildren(root.firstChild, el('p', 'plan-status plan-error', problemText(err)));
    }
  })();
  return root;

  /** @param {{calendars: any[], defaultCalendarId: string}} list @param {any} event */
  function build(list, event) {
    const zone = event?.timeZone ?? localZone();
    const day = o.day && isDay(o.day) ? o.day : todayIn(zone);
    const startAt = event ? splitWall(event.start) : { date: day, time: defaultStart(day, zone) };
    const endAt = event ? splitWall(event.end) : { date: day, time: later(startAt.time, 60) };

    // ---- Controls ----
    const title = el('input', { type: 'text', name: 'title', class: 'plan-input', maxLength: 200, autocomplete: 'off', value: event?.title ?? '' });
    const calendar = el('select', { name: 'calendarId', class: 'plan-input' },
      list.calendars.map((c) => el('option', { value: c.id }, c.name)));
    calendar.value = event?.calendarId ?? list.defaultCalendarId ?? list.calendars[0]?.id ?? '';
    const calSwatch = el('span', 'plan-select-swatch');
    const showSwatch = () => {
      const c = list.calendars.find((x) => x.id === calendar.value);
      calSwatch.replaceChildren(c ? swatch(c) : '');
    };
    calendar.addEventListener('change', showSwatch);
    showSwatch();
    const date = el('input', { type: 'date', name: 'date', class: 'plan-input', value: startAt.date });
    const start = el('input', { type: 'time', name: 'start', class: 'plan-input', value: startAt.time, step: 300 });
    const end = el('input', { type: 'time', name: 'end', class: 'plan-input', value: endAt.time, step: 300 });
    const flexible = checkbox({ label: 'Flexible: the plan chooses when, inside a window', name: 'flexible', checked: !!event?.durationMinutes });
    const length = el('input', { type: 'number', name: 'duration', class: 'plan-input', min: 5, max: 1440, step: 5, inputMode: 'numeric',
      value: String(event?.durationMinutes ?? 60) });
    const repeat = checkbox({ label: 'Repeat every week', name: 'repeat', checked: !!event?.repeat });
    const names = weekdayNames('long');
    const shortNames = weekdayNames('short');
    const first = firstWeekday();
    const weekdayOrder = Array.from({ length: 7 }, (_, i) => ((first - 1 + i) % 7) + 1);
    const weekdayBoxes = weekdayOrder.map((w) => {
      const b = checkbox({ label: shortNames[w - 1], name: 'weekday', value: String(w), checked: !!event?.repeat?.weekdays.includes(w) });
      b.input.setAttribute('aria-label', names[w - 1]);
      return b;
    });
    const interval = el('input', { type: 'number', name: 'interval', class: 'plan-input narrow', min: 1, max: 52, inputMode: 'numeric',
      value: String(event?.repeat?.interval ?? 1) });
    const endsNow = event?.repeat?.until ? 'until' : event?.repeat?.count ? 'count' : 'never';
    const endsRadios = [['never', 'Never'], ['until', 'On a day'], ['count', 'After a number of times']].map(([value, label]) => {
      const input = el('input', { type: 'radio', name: 'ends', value, checked: value === endsNow });
      return { input, label: el('label', 'plan-check', input, el('span', null, label)) };
    });
    const until = el('input', { type: 'date', name: 'until', class: 'plan-input', value: event?.repeat?.until ?? '' });
    const count = el('input', { type: 'number', name: 'count', class: 'plan-input narrow', min: 1, max: 1000, inputMode: 'numeric',
      value: String(event?.repeat?.count ?? 10) });
    const modeBoxes = MODES.map((m) => checkbox({ label: modeWord(m), name: 'modes', value: m, checked: event ? event.modes.includes(m) : true }));
    const description = el('textarea', { name: 'description', class: 'plan-input', maxLength: 2000, rows: 3, value: event?.description ?? '' });

    // ---- Fields ----
    const fTitle = field({ label: 'Title', control: title, key: 'title' });
    const fCalendar = field({ label: 'Calendar', control: calendar, key: 'calendar' });
    fCalendar.wrap.insertBefore(el('div', 'plan-select-row', calSwatch, calendar), fCalendar.error);
    const fDate = field({ label: 'Day', control: date, key: 'date' });
    const fStart = field({ label: 'Starts', control: start, key: 'start', cls: 'half' });
    const fEnd = field({ label: 'Ends', control: end, key: 'end', cls: 'half' });
    const fLength = field({ label: 'How long (minutes)', control: length, key: 'duration',
      hint: 'The plan places it inside the window above, around your other events and the trips between them.' });
    const gWeekdays = group({ legend: 'On', key: 'weekdays', cls: 'plan-weekdays', children: weekdayBoxes.map((b) => b.label) });
    const fInterval = field({ label: 'Every how many weeks', control: interval, key: 'interval' });
    const gEnds = group({ legend: 'Ends', key: 'ends', children: endsRadios.map((r) => r.label) });
    const fUntil = field({ label: 'Last day', control: until, key: 'until' });
    const fCount = field({ label: 'Times in all', control: count, key: 'count' });
    const placeError = el('p', { class: 'plan-field-error', id: 'plan-place-error', hidden: true });
    const place = placeField(ctx, { initial: event?.place ?? null, onChange: () => checks.touch('place'), describedBy: 'plan-place-error' });
    const gPlace = el('div', { class: 'plan-field', dataset: { field: 'place' } },
      el('label', { htmlFor: 'plan-place-search' }, 'Place (optional)'), place.el, placeError);
    const gModes = group({ legend: 'Ways to get there', key: 'modes', cls: 'plan-modes', children: modeBoxes.map((b) => b.label) });
    const fDescription = field({ label: 'Notes (optional)', control: description, key: 'description' });

    const repeatPart = el('div', 'plan-repeat', gWeekdays.wrap, fInterval.wrap, gEnds.wrap, fUntil.wrap, fCount.wrap);
    const save = el('button', { type: 'submit', class: 'plan-button primary', id: 'plan-save' }, 'Save');
    const why = el('p', { class: 'plan-why-disabled', id: 'plan-save-why', 'aria-live': 'polite' });
    const failure = el('p', { class: 'plan-form-error', role: 'alert', hidden: true });
    const back = o.eventId ? `/plan/event/${encodeURIComponent(o.eventId)}/${o.occurrenceDay ?? startAt.date}` : `/plan/day/${day}`;
    const zoneNote = zone !== localZone() ? el('p', 'plan-hint', `Times are in ${zoneName(zone)}, the event’s time zone.`) : null;
    const form = el('form', { class: 'plan-form', id: 'plan-event-form', dataset: { form: 'event' }, noValidate: true },
      fTitle.wrap, fCalendar.wrap, fDate.wrap, el('div', 'plan-row', fStart.wrap, fEnd.wrap), zoneNote,
      flexible.label, fLength.wrap, repeat.label, repeatPart, gPlace, gModes.wrap, fDescription.wrap,
      failure, el('div', 'plan-actions', save, el('a', { class: 'plan-button', href: back }, 'Cancel')), why);

    /** @returns {import('./event-checks.js').EventValues} */
    const values = () => ({
      title: title.value, calendarId: calendar.value, date: date.value, start: start.value, end: end.value,
      flexible: flexible.input.checked, duration: length.value, repeat: repeat.input.checked,
      weekdays: weekdayBoxes.filter((b) => b.input.checked).map((b) => Number(b.input.value)),
      interval: interval.value, ends: /** @type {any} */ (endsRadios.find((r) => r.input.checked)?.input.value ?? 'never'),
      until: until.value, count: count.value, place: place.value(), placeProblem: place.problem(),
      modes: modeBoxes.filter((b) => b.input.checked).map((b) => b.input.value), description: description.value,
    });

    const checks = liveChecks({
      errors: () => checkEvent(values()),
      lines: {
        title: { error: fTitle.error, controls: [title] },
        date: { error: fDate.error, controls: [date] },
        start: { error: fStart.error, controls: [start] },
        end: { error: fEnd.error, controls: [end, start] },
        duration: { error: fLength.error, controls: [length, start, end, flexible.input] },
        weekdays: { error: gWeekdays.error, controls: [...weekdayBoxes.map((b) => b.input), date, repeat.input] },
        interval: { error: fInterval.error, controls: [interval] },
        until: { error: fUntil.error, controls: [until, date] },
        count: { error: fCount.error, controls: [count] },
        place: { error: placeError, controls: [] },
        modes: { error: gModes.error, controls: modeBoxes.map((b) => b.input) },
        description: { error: fDescription.error, controls: [description] },
      },
      save, why, form,
    });

    // The labels and parts that depend on the kind of event.
    let lastWeekday = weekdayOf(isDay(date.value) ? date.value : day);
    function arrange() {
      const flex = flexible.input.checked;
      fStart.wrap.querySelector('label').textContent = flex ? 'Earliest start' : 'Starts';
      fEnd.wrap.querySelector('label').textContent = flex ? 'Latest end' : 'Ends';
      fDate.wrap.querySelector('label').textContent = repeat.input.checked ? 'First day' : 'Day';
      fLength.wrap.hidden = !flex;
      repeatPart.hidden = !repeat.input.checked;
      const ends = values().ends;
      fUntil.wrap.hidden = ends !== 'until';
      fCount.wrap.hidden = ends !== 'count';
      form.dataset.kind = flex ? 'flexible' : 'fixed';
    }
    repeat.input.addEventListener('change', () => {
      // Repeating starts on the first day's weekday, which the repeat must include.
      if (repeat.input.checked && !weekdayBoxes.some((b) => b.input.checked) && isDay(date.value)) {
        const box = weekdayBoxes.find((b) => Number(b.input.value) === weekdayOf(date.value));
        if (box) box.input.checked = true;
      }
      arrange();
      checks.update();
    });
    date.addEventListener('change', () => {
      // A repeat on the old first day's weekday alone follows the day to its new weekday.
      if (!isDay(date.value)) return;
      const now = weekdayOf(date.value);
      const on = weekdayBoxes.filter((b) => b.input.checked).map((b) => Number(b.input.value));
      if (on.length === 1 && on[0] === lastWeekday && now !== lastWeekday) {
        for (const b of weekdayBoxes) b.input.checked = Number(b.input.value) === now;
        checks.update();
      }
      lastWeekday = now;
    });
    flexible.input.addEventListener('change', arrange);
    for (const r of endsRadios) r.input.addEventListener('change', () => { arrange(); checks.update(); });
    arrange();
    checks.update();

    let busy = false;
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const v = values();
      if (busy || Object.keys(checkEvent(v)).length) return;
      busy = true;
      save.disabled = true;
      save.setAttribute('aria-busy', 'true');
      failure.hidden = true;
      try {
        const input = eventInput(v, zone);
        const saved = o.eventId ? await updateEvent(o.eventId, input) : await createEvent(input);
        ctx.calendarsChanged();
        ctx.warn(saved.warnings ?? []);
        toast(o.eventId ? 'Event changed' : `Event added to ${dayTitle(v.date)}`);
        // A repeating event changed from one of its days goes back to that day, not its first.
        ctx.go(`/plan/day/${o.eventId && v.repeat && o.occurrenceDay ? o.occurrenceDay : v.date}`, { replace: true });
      } catch (err) {
        failure.textContent = problemText(err);
        failure.hidden = false;
        save.disabled = false;
      } finally {
        busy = false;
        save.removeAttribute('aria-busy');
      }
    });
    requestAnimationFrame(() => { if (!o.eventId) title.focus({ preventScroll: true }); });
    return form;
  }
}
