// Words for half-hour slots of the weekly schedule (slot 0 is 00:00–00:30, site-local).

import { WEEKDAYS } from './format.js';

/** "9:30 AM" for the start of a slot (0…48). */
export function slotTime(/** @type {number} */ slot) {
  const minute = (slot * 30) % 1440;
  const d = new Date(Date.UTC(2020, 0, 1, Math.floor(minute / 60), minute % 60));
  return d.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
}

/** "9:00 AM–11:30 AM" */
export const slotRange = (/** @type {number} */ start, /** @type {number} */ end) => `${slotTime(start)}–${slotTime(end)}`;

/** "Monday 9:00 AM–11:30 AM" */
export const blockWhen = (/** @type {{weekday: number, startSlot: number, endSlot: number}} */ b) =>
  `${WEEKDAYS[b.weekday - 1]} ${slotRange(b.startSlot, b.endSlot)}`;
