// The Planner as the server offers it (PLN-1…6): the only module of the area that names API
// paths. Everything under /v1/me/planner belongs to one person and goes with their session
// (an account's, else this device's identity); the place search is public. Nothing here is
// answered from a saved copy: a plan read offline would show trips that no longer hold.

import { send } from '../shell/api.js';
import { authed } from '../accounts/session.js';

const id = (s) => encodeURIComponent(s);
const BASE = '/v1/me/planner';

// ---- Calendars (PLN-1) ----

export const listCalendars = () => authed('GET', `${BASE}/calendars`);
/** @param {{name: string, colour: string}} input */
export const createCalendar = (input) => authed('POST', `${BASE}/calendars`, { json: input });
/** @param {string} calendarId @param {{name: string, colour: string}} input */
export const updateCalendar = (calendarId, input) => authed('PUT', `${BASE}/calendars/${id(calendarId)}`, { json: input });
/** Deletes the calendar and its events. @param {string} calendarId */
export const deleteCalendar = (calendarId) => authed('DELETE', `${BASE}/calendars/${id(calendarId)}`);

// ---- Events (PLN-2) ----

/** @param {any} input EventInput @returns {Promise<{event: any, warnings: any[]}>} */
export const createEvent = (input) => authed('POST', `${BASE}/events`, { json: input });
/** @param {string} eventId */
export const getEvent = (eventId) => authed('GET', `${BASE}/events/${id(eventId)}`);
/** @param {string} eventId @param {any} input EventInput */
export const updateEvent = (eventId, input) => authed('PUT', `${BASE}/events/${id(eventId)}`, { json: input });
/** @param {string} eventId */
export const deleteEvent = (eventId) => authed('DELETE', `${BASE}/events/${id(eventId)}`);
/** One occurrence to other times. @param {string} eventId @param {string} day @param {{start: string, end: string}} times */
export const moveOccurrence = (eventId, day, times) => authed('PUT', `${BASE}/events/${id(eventId)}/occurrences/${id(day)}`, { json: times });
/** @param {string} eventId @param {string} day */
export const cancelOccurrence = (eventId, day) => authed('DELETE', `${BASE}/events/${id(eventId)}/occurrences/${id(day)}`);

// ---- Reading the plan (PLN-3, PLN-5, PLN-6) ----

/** @param {string} from @param {string} to days, at most 62 apart */
export const listOccurrences = (from, to) => authed('GET', `${BASE}/occurrences?${new URLSearchParams({ from, to })}`);
/** @param {string} day @param {string} timeZone */
export const getDayPlan = (day, timeZone) => authed('GET', `${BASE}/days/${id(day)}?${new URLSearchParams({ timeZone })}`);

// ---- Travel preferences (PLN-4) ----

export const getPreferences = () => authed('GET', `${BASE}/preferences`);
/** @param {any} preferences */
export const putPreferences = (preferences) => authed('PUT', `${BASE}/preferences`, { json: preferences });

// ---- Time to leave (PLN-7) ----

/** @param {number} latitude @param {number} longitude @param {string} timeZone */
export const reportPosition = (latitude, longitude, timeZone) => authed('PUT', `${BASE}/position`, { json: { latitude, longitude, timeZone } });
export const forgetPosition = () => authed('DELETE', `${BASE}/position`);

// ---- Places (public) ----

/** @param {string} q @param {number} [limit] */
export const searchPlaces = (q, limit = 8) => send('GET', `/v1/planner/places?${new URLSearchParams({ q, limit: String(limit) })}`);

// ---- Calendar files and subscriptions (PLN-10) ----

/**
 * Adds an .ics file's events to a calendar (a new one unless `calendarId`).
 * @param {Blob} file @param {{calendarId?: string, name?: string, timeZone?: string}} o
 */
export function importCalendarFile(file, o = {}) {
  const q = new URLSearchParams();
  if (o.calendarId) q.set('calendarId', o.calendarId);
  if (o.name) q.set('file', o.name);
  if (o.timeZone) q.set('timeZone', o.timeZone);
  return authed('POST', `${BASE}/calendars/import?${q}`, { body: file, contentType: 'text/calendar' });
}
/** The calendar as an .ics Blob. @param {string} calendarId @param {boolean} travel */
export const exportCalendar = (calendarId, travel) =>
  authed('GET', `${BASE}/calendars/${id(calendarId)}/ics?travel=${travel}`, { accept: 'text/calendar', raw: true });
/** @param {string} calendarId */
export const getSubscription = (calendarId) => authed('GET', `${BASE}/calendars/${id(calendarId)}/subscription`);
/** A new address; the old one stops working. @param {string} calendarId @param {boolean} includeTravel */
export const createSubscription = (calendarId, includeTravel) =>
  authed('POST', `${BASE}/calendars/${id(calendarId)}/subscription`, { json: { includeTravel } });
/** @param {string} calendarId */
export const deleteSubscription = (calendarId) => authed('DELETE', `${BASE}/calendars/${id(calendarId)}/subscription`);

// ---- Tickets (PLN-9) ----

/** The ticket for the transit trip to an occurrence, bought now or before. @param {string} eventId @param {string} day */
export const buyTicket = (eventId, day) => authed('POST', `${BASE}/events/${id(eventId)}/occurrences/${id(day)}/ticket`);
export const listTickets = () => authed('GET', `${BASE}/tickets`);
