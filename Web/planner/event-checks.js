// What the event form checks as the person types (PLN-2), field by field, in the words shown
// next to each field; and the EventInput the API takes, built from the same values. The rules
// are the contract's: an end after the start, a flexible event's length within its window,
// weekly repeats on at least one weekday that include the first day, an end day not before
// the first, at least one way of getting there.

import { minuteOfDay, isDay, weekdayOf, wallTime } from './wall-time.js';
import { duration, wallClock, weekdayNames } from './format.js';

/**
 * @typedef {{title: string, calendarId: string, date: string, start: string, end: string,
 *   flexible: boolean, duration: string, repeat: boolean, weekdays: number[], interval: string,
 *   ends: 'never'|'until'|'count', until: string, count: string,
 *   place: {name: string, latitude: number, longitude: number}|null, placeProblem: string|null,
 *   modes: string[], description: string}} EventValues
 */

const whole = (/** @type {string} */ s) => (/^\d+$/.test(String(s).trim()) ? Number(s) : NaN);

/** @param {EventValues} v @returns {Record<string, string>} field name → what is wrong */
export function checkEvent(v) {
  /** @type {Record<string, string>} */
  const e = {};
  const title = v.title.trim();
  if (!title) e.title = 'Give the event a title.';
  else if (title.length > 200) e.title = 'A title is at most 200 characters.';
  if (!isDay(v.date)) e.date = 'Choose the day.';
  const start = minuteOfDay(v.start);
  const end = minuteOfDay(v.end);
  if (start == null) e.start = v.flexible ? 'Choose the earliest start.' : 'Choose when it starts.';
  if (end == null) e.end = v.flexible ? 'Choose the latest end.' : 'Choose when it ends.';
  else if (start != null && end <= start) e.end = v.flexible ? 'The window must end after it opens.' : 'The end must be after the start.';
  if (v.flexible) {
    const n = whole(v.duration);
    if (!Number.isInteger(n)) e.duration = 'Say how long it takes, in whole minutes.';
    else if (n < 5) e.duration = 'At least 5 minutes.';
    else if (start != null && end != null && end > start && n > end - start) {
      e.duration = `${duration(n)} does not fit between ${wallClock(v.start)} and ${wallClock(v.end)} (${duration(end - start)}).`;
    }
  }
  if (v.repeat) {
    if (!v.weekdays.length) e.weekdays = 'Choose at least one day of the week.';
    else if (isDay(v.date) && !v.weekdays.includes(weekdayOf(v.date))) {
      e.weekdays = `The first day is a ${weekdayNames('long')[weekdayOf(v.date) - 1]}: include it, or start on one of the days chosen.`;
    }
    const every = whole(v.interval);
    if (!Number.isInteger(every) || every < 1 || every > 52) e.interval = 'Every 1 to 52 weeks.';
    if (v.ends === 'until') {
      if (!isDay(v.until)) e.until = 'Choose the last day.';
      else if (isDay(v.date) && v.until < v.date) e.until = 'The last day cannot be before the first.';
    } else if (v.ends === 'count') {
      const n = whole(v.count);
      if (!Number.isInteger(n) || n < 1 || n > 1000) e.count = 'From 1 to 1000 times.';
    }
  }
  if (v.placeProblem) e.place = v.placeProblem;
  if (!v.modes.length) e.modes = 'Choose at least one way to get there.';
  if (v.description.length > 2000) e.description = 'A description is at most 2000 characters.';
  return e;
}

/**
 * The EventInput for valid values.
 * @param {EventValues} v @param {string} timeZone
 */
export function eventInput(v, timeZone) {
  /** @type {any} */
  const input = {
    title: v.title.trim(),
    calendarId: v.calendarId || undefined,
    start: wallTime(v.date, v.start),
    end: wallTime(v.date, v.end),
    timeZone,
    modes: v.modes,
  };
  const description = v.description.trim();
  if (description) input.description = description;
  if (v.flexible) input.durationMinutes = whole(v.duration);
  if (v.repeat) {
    input.repeat = { weekdays: [...v.weekdays].sort((a, b) => a - b), interval: whole(v.interval) };
    if (v.ends === 'until') input.repeat.until = v.until;
    if (v.ends === 'count') input.repeat.count = whole(v.count);
  }
  if (v.place) input.place = { name: v.place.name, latitude: v.place.latitude, longitude: v.place.longitude };
  return input;
}
