// The person's calendars (PLN-1): each with its colour and name, the one new events go to
// marked, and a way to add another or import one from a file (PLN-10).

import { el } from '../shell/dom.js';
import { problemText } from '../shell/api.js';
import { NOTHING } from './layers.js';
import { icon } from './icons.js';
import { importControl } from './calendar-files.js';

/** @param {import('./index.js').PlanContext} ctx */
export function calendarsView(ctx) {
  const status = el('p', { class: 'plan-status', role: 'status' }, 'Getting your calendars…');
  const list = el('ul', { class: 'plan-calendar-list', id: 'plan-calendar-list', 'aria-label': 'Calendars' });
  const files = importControl(ctx, () => load());
  const root = el('div', 'plan-calendars-screen',
    el('h2', { class: 'plan-heading', id: 'plan-calendars-title', tabIndex: -1 }, 'Calendars'),
    el('p', 'plan-hint', 'Each event belongs to a calendar; its colour marks the event in your plan and on the map.'),
    status, list,
    el('div', 'plan-actions', el('a', { class: 'plan-button primary', id: 'plan-new-calendar', href: '/plan/calendars/new' }, icon('plus'), 'New calendar'),
      files.button, files.input),
    el('p', 'plan-hint', 'Import an .ics file exported from Apple, Google or Outlook calendar; importing it again updates the same events.'),
    files.report);
  ctx.draw(NOTHING);
  load();
  return root;

  async function load() {
    try {
      const cals = await ctx.calendars(true);
      if (!ctx.alive()) return;
      status.textContent = cals.calendars.length === 1 ? 'You have one calendar.' : `You have ${cals.calendars.length} calendars.`;
      list.dataset.loaded = 'true';
      list.replaceChildren(...cals.calendars.map((c) => {
        const chip = el('span', { class: 'plan-calendar-sample', 'aria-hidden': 'true' }, 'Aa');
        chip.style.background = c.colour;
        chip.style.color = c.textColour;
        return el('li', { dataset: { calendarId: c.id } }, el('a', { class: 'plan-calendar-row', href: `/plan/calendars/${encodeURIComponent(c.id)}` },
          chip,
          el('span', 'plan-event-main', el('span', 'plan-title', c.name),
            c.id === cals.defaultCalendarId ? el('span', 'plan-hint', 'New events go here') : null),
          el('span', 'plan-row-action', 'Edit')));
      }));
    } catch (err) {
      if (ctx.alive()) { status.textContent = problemText(err); status.classList.add('plan-error'); }
    }
  }
}
