// Moving one day of a repeating event (PLN-2): new times for that occurrence only, in the
// event's zone, checked as the person types; the answer's warnings are shown at once.

import { el } from '../shell/dom.js';
import { problemText } from '../shell/api.js';
import { toast } from '../shell/toast.js';
import { moveOccurrence } from './api.js';
import { field, liveChecks } from './form-parts.js';
import { isDay, minuteOfDay, wallTime, wallOf } from './wall-time.js';

/**
 * @param {import('./index.js').PlanContext} ctx @param {any} event @param {string} day the day it was due on
 * @param {any} step its place in the plan now @param {string} planZone @param {() => void} close
 */
export function moveForm(ctx, event, day, step, planZone, close) {
  const zone = event.timeZone ?? planZone;
  const from = wallOf(step.start, zone);
  const to = wallOf(step.end, zone);
  const date = el('input', { type: 'date', name: 'move-date', class: 'plan-input', value: from.date });
  const start = el('input', { type: 'time', name: 'move-start', class: 'plan-input', value: from.time, step: 300 });
  const end = el('input', { type: 'time', name: 'move-end', class: 'plan-input', value: to.time, step: 300 });
  const fDate = field({ label: 'Day', control: date, key: 'date' });
  const fStart = field({ label: event.durationMinutes ? 'Earliest start' : 'Starts', control: start, key: 'start', cls: 'half' });
  const fEnd = field({ label: event.durationMinutes ? 'Latest end' : 'Ends', control: end, key: 'end', cls: 'half' });
  const save = el('button', { type: 'submit', class: 'plan-button primary' }, 'Move');
  const why = el('p', { class: 'plan-why-disabled', 'aria-live': 'polite' });
  const failure = el('p', { class: 'plan-form-error', role: 'alert', hidden: true });
  const form = el('form', { class: 'plan-form plan-move-form', dataset: { form: 'move' }, noValidate: true },
    el('h3', 'plan-subheading', 'Move this day only'),
    fDate.wrap, el('div', 'plan-row', fStart.wrap, fEnd.wrap), failure,
    el('div', 'plan-actions', save, el('button', { type: 'button', class: 'plan-button', on: { click: close } }, 'Cancel')), why);

  const errors = () => {
    /** @type {Record<string, string>} */
    const e = {};
    if (!isDay(date.value)) e.date = 'Choose the day.';
    const a = minuteOfDay(start.value);
    const b = minuteOfDay(end.value);
    if (a == null) e.start = 'Choose when it starts.';
    if (b == null) e.end = 'Choose when it ends.';
    else if (a != null && b <= a) e.end = 'The end must be after the start.';
    else if (a != null && event.durationMinutes && b - a < event.durationMinutes) e.end = 'The window is shorter than the event.';
    return e;
  };
  liveChecks({ errors, lines: {
    date: { error: fDate.error, controls: [date] },
    start: { error: fStart.error, controls: [start] },
    end: { error: fEnd.error, controls: [end, start] },
  }, save, why, form }).update();

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (Object.keys(errors()).length) return;
    save.disabled = true;
    failure.hidden = true;
    try {
      const saved = await moveOccurrence(event.id, day, { start: wallTime(date.value, start.value), end: wallTime(date.value, end.value) });
      ctx.warn(saved.warnings ?? []);
      toast('Moved this day');
      ctx.go(`/plan/day/${date.value}`, { replace: true });
    } catch (err) {
      failure.textContent = problemText(err);
      failure.hidden = false;
      save.disabled = false;
    }
  });
  requestAnimationFrame(() => date.focus({ preventScroll: true }));
  return form;
}
