// What a saved change does to the plan, said at once (PLN-5): an event that cannot be reached
// in time, on which day and why, in a banner at the top of the Plan that stays until the person
// dismisses it (a toast would be gone before it is read), each leading to its day.

import { el } from '../shell/dom.js';
import { shortDay } from './format.js';

export function warningBanner() {
  const list = el('ul', 'plan-warning-list');
  const close = el('button', { type: 'button', class: 'plan-button small', id: 'plan-warnings-close', on: { click: clear } }, 'Dismiss');
  const root = el('div', { class: 'plan-warnings', id: 'plan-warnings', role: 'alert', hidden: true },
    el('div', 'plan-warnings-head', el('p', { class: 'plan-warnings-title', id: 'plan-warnings-title' }), close), list);

  /** @param {{eventId: string, day: string, title: string, message: string}[]} warnings */
  function show(warnings) {
    if (!warnings.length) { clear(); return; }
    root.querySelector('.plan-warnings-title').textContent = warnings.length === 1 ? 'Check your plan' : `Check your plan: ${warnings.length} problems`;
    list.replaceChildren(...warnings.map((w) => el('li', { class: 'plan-warning', dataset: { eventId: w.eventId, day: w.day } },
      el('a', { href: `/plan/day/${w.day}` }, shortDay(w.day)), ': ',
      // The message names what cannot be reached; a message that does not is given its title.
      w.message.includes(w.title) ? w.message : `${w.title}: ${w.message}`)));
    root.hidden = false;
  }

  function clear() {
    root.hidden = true;
    list.replaceChildren();
  }

  return { el: root, show, clear };
}
