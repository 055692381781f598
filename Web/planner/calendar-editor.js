// A calendar's name and colour (PLN-1): a new one, or renaming and recolouring one, with the
// colour from RGB sliders and a contrast check; deleting one deletes its events, so it is
// asked first, and the last calendar cannot go (a person always keeps one).

import { el } from '../shell/dom.js';
import { problemText } from '../shell/api.js';
import { confirm } from '../shell/dialog.js';
import { toast } from '../shell/toast.js';
import { createCalendar, updateCalendar, deleteCalendar } from './api.js';
import { field, liveChecks, checkbox } from './form-parts.js';
import { colourSliders, PRESETS } from './colour-sliders.js';
import { NOTHING } from './layers.js';
import { shareSection } from './calendar-files.js';

/** @param {import('./index.js').PlanContext} ctx @param {string|null} calendarId null for a new calendar */
export function calendarEditor(ctx, calendarId) {
  const heading = el('h2', { class: 'plan-heading', id: 'plan-calendar-title', tabIndex: -1 }, calendarId ? 'Calendar' : 'New calendar');
  const root = el('div', 'plan-calendar-screen', el('a', { class: 'plan-back', href: '/plan/calendars' }, '‹ Calendars'), heading,
    el('p', { class: 'plan-status', role: 'status' }, 'Getting your calendars…'));
  ctx.draw(NOTHING);
  (async () => {
    try {
      const list = await ctx.calendars(true);
      if (!ctx.alive()) return;
      const calendar = calendarId ? list.calendars.find((c) => c.id === calendarId) : null;
      if (calendarId && !calendar) {
        root.replaceChildren(root.firstChild, heading, el('p', 'plan-status', 'This calendar does not exist any more.'));
        return;
      }
      root.replaceChildren(root.firstChild, heading, build(list, calendar), calendar ? shareSection(ctx, calendar) : null);
    } catch (err) {
      if (ctx.alive()) root.replaceChildren(root.firstChild, heading, el('p', 'plan-status plan-error', problemText(err)));
    }
  })();
  return root;

  /** @param {{calendars: any[]}} list @param {any} calendar */
  function build(list, calendar) {
    const name = el('input', { type: 'text', name: 'name', class: 'plan-input', maxLength: 60, autocomplete: 'off', value: calendar?.name ?? '' });
    const fName = field({ label: 'Name', control: name, key: 'name' });
    /** @type {ReturnType<typeof liveChecks>|null} */
    let checks = null;
    // A new calendar starts from a colour none of the person's calendars has yet.
    const fresh = PRESETS.find((p) => !list.calendars.some((c) => c.colour.toLowerCase() === p)) ?? PRESETS[0];
    const colour = colourSliders({ colour: calendar?.colour ?? fresh, name: () => name.value, onChange: () => checks?.update() });
    name.addEventListener('input', () => colour.refresh());
    const alerts = checkbox({ name: 'leaveAlerts', label: 'Tell me when to leave for its events', checked: calendar?.leaveAlerts ?? true });
    const save = el('button', { type: 'submit', class: 'plan-button primary', id: 'plan-calendar-save' }, calendarId ? 'Save' : 'Add calendar');
    const why = el('p', { class: 'plan-why-disabled', 'aria-live': 'polite' });
    const failure = el('p', { class: 'plan-form-error', role: 'alert', hidden: true });
    const only = list.calendars.length <= 1;
    const remove = calendarId ? el('button', { type: 'button', class: 'plan-button danger', id: 'plan-calendar-delete', disabled: only, on: { click: del } }, 'Delete') : null;
    const form = el('form', { class: 'plan-form', id: 'plan-calendar-form', dataset: { form: 'calendar' }, noValidate: true },
      fName.wrap, colour.el, alerts.label, failure,
      el('div', 'plan-actions', save, el('a', { class: 'plan-button', href: '/plan/calendars' }, 'Cancel'), remove), why,
      calendarId && only ? el('p', 'plan-hint', 'This is your only calendar, so it cannot be deleted: you always keep one.') : null);
    checks = liveChecks({
      errors: () => {
        const n = name.value.trim();
        return n ? (n.length > 60 ? { name: 'A name is at most 60 characters.' } : {}) : { name: 'Give the calendar a name.' };
      },
      lines: { name: { error: fName.error, controls: [name] } },
      save, why, form,
    });
    checks.update();

    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      if (save.disabled) return;
      save.disabled = true;
      failure.hidden = true;
      const input = { name: name.value.trim(), colour: colour.value(), leaveAlerts: alerts.input.checked };
      try {
        if (calendarId) await updateCalendar(calendarId, input); else await createCalendar(input);
        ctx.calendarsChanged();
        toast(calendarId ? 'Calendar saved' : `Calendar “${input.name}” added`);
        ctx.go('/plan/calendars', { replace: true });
      } catch (err) {
        failure.textContent = problemText(err);
        failure.hidden = false;
        save.disabled = false;
      }
    });

    async function del() {
      const sure = await confirm({ name: 'delete-calendar', title: `Delete “${calendar.name}”?`,
        message: 'Every event in this calendar is deleted with it. This cannot be undone.', confirm: 'Delete calendar and events', danger: true });
      if (!sure) return;
      try {
        await deleteCalendar(calendarId);
        ctx.calendarsChanged();
        toast(`Calendar “${calendar.name}” deleted`);
        ctx.go('/plan/calendars', { replace: true });
      } catch (err) {
        // 409 when it is the last one left: the server's words say so.
        failure.textContent = problemText(err);
        failure.hidden = false;
      }
    }
    return form;
  }
}
