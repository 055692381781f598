// Wayfinding's part of the API. Venues and floor plans are read through the shell's getJSON, so
// a campus once opened is there offline; search and routes need the server.

import { getJSON } from '../shell/api.js';

const q = (params) => new URLSearchParams(Object.entries(params).filter(([, v]) => v != null && v !== '')).toString();

export const listVenues = () => getJSON('/v1/venues');
/** @param {string} id */
export const getVenue = (id) => getJSON(`/v1/venues/${encodeURIComponent(id)}`);
/** @param {string} venueId @param {string} levelId */
export const getLevelMap = (venueId, levelId) => getJSON(`/v1/venues/${encodeURIComponent(venueId)}/levels/${encodeURIComponent(levelId)}/map`);
/** @param {string} text @param {string} venueId */
export const searchPlaces = (text, venueId, limit = 8) => getJSON(`/v1/places?${q({ q: text, venueId, limit })}`);
/** @param {string} venueId @param {string} personId */
export const getPerson = (venueId, personId) => getJSON(`/v1/venues/${encodeURIComponent(venueId)}/people/${encodeURIComponent(personId)}`);

/**
 * @param {string} venueId
 * @param {{from?: string, fromLatitude?: number, fromLongitude?: number, fromLevel?: string, to?: string, nearest?: string, stepFree?: boolean}} params
 */
export const getRoute = (venueId, params) =>
  getJSON(`/v1/venues/${encodeURIComponent(venueId)}/route?${q({ ...params, stepFree: params.stepFree ? 'true' : null })}`);
/** @param {string} venueId @param {string} placeId */
export const getPlace = (venueId, placeId) => getJSON(`/v1/venues/${encodeURIComponent(venueId)}/places/${encodeURIComponent(placeId)}`);
