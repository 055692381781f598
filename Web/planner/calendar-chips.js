// The person's calendars as small chips (their colour, their name), each leading to its editor.

import { el } from '../shell/dom.js';

/** A square of a calendar's colour (decorative: the name is beside it). @param {{colour: string}} c */
export function swatch(c, cls = 'plan-swatch') {
  const s = el('span', { class: cls, 'aria-hidden': 'true' });
  s.style.background = c.colour;
  return s;
}

/** @param {{calendars: any[], defaultCalendarId: string}} list */
export function calendarChips(list) {
  return list.calendars.map((c) => el('li', null, el('a', {
    class: 'plan-calendar', href: `/plan/calendars/${encodeURIComponent(c.id)}`, dataset: { calendarId: c.id },
    title: c.id === list.defaultCalendarId ? 'New events go here' : null,
  }, swatch(c), el('span', 'plan-calendar-label', c.name))));
}
