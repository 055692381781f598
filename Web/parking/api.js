// Parking as the server offers it (PRK-1…19): the only module of the area that names API
// paths. Public reads go through getJSON (a saved copy answers when the server cannot); one
// person's requests carry their session (authed); bookings and reviews made offline go
// through the outbox (`../accounts/outbox.js`) with an Idempotency-Key made once per intent,
// so a retry after a lost answer books and charges nothing twice.

import { getJSON, send, newKey } from '../shell/api.js';
import { authed, signedIn } from '../accounts/session.js';
import { sendOrQueue } from '../accounts/outbox.js';
import { savedRead } from '../accounts/saved-reads.js';

export { newKey };

const id = (s) => encodeURIComponent(s);

// ---- The campus, its lots and their spots (public, kept for offline use) ----

export const getConfig = () => getJSON('/v1/config');
export const listSites = () => getJSON('/v1/sites');
/** @param {string} siteId */
export const listLots = (siteId) => getJSON(`/v1/sites/${id(siteId)}/lots`);
/** @param {string} siteId */
export const getOccupancy = (siteId) => getJSON(`/v1/sites/${id(siteId)}/occupancy`);
/** @param {string} lotId */
export const getSpots = (lotId) => getJSON(`/v1/lots/${id(lotId)}/spots`);
/** @param {string} lotId */
export const getSpotStates = (lotId) => getJSON(`/v1/lots/${id(lotId)}/spot-states`);
/** @param {string} lotId @param {number} weekday 1 = Sunday … 7 */
/** The dates a lot is closed on by its operator, from now on. @param {string} lotId */
export const getLotClosures = (lotId) => getJSON(`/v1/lots/${id(lotId)}/closures`);
export const getTypicalOccupancy = (lotId, weekday) => getJSON(`/v1/lots/${id(lotId)}/typical-occupancy?weekday=${weekday}`);
/** The site's live stream of spot changes (PRK-5), resuming after `lastEventId`. */
export const liveURL = (siteId, lastEventId) => `/v1/sites/${id(siteId)}/live?lastEventId=${lastEventId}`;

// ---- Soft holds (PRK-9, PRK-10) ----

export const listHolds = () => authed('GET', '/v1/holds');
/** @param {string} spotId */
export const holdSpot = (spotId) => authed('POST', '/v1/holds', { json: { spotId } });
/** @param {string} holdId */
export const getHold = (holdId) => authed('GET', `/v1/holds/${id(holdId)}`);
/** @param {string} holdId @param {boolean} wasMe */
export const answerHold = (holdId, wasMe) => authed('POST', `/v1/holds/${id(holdId)}/answer`, { json: { wasMe } });
/** @param {string} holdId */
export const releaseHold = (holdId) => authed('DELETE', `/v1/holds/${id(holdId)}`);

// ---- Bookings (PRK-12) ----

/**
 * What a range would cost and whether a space is free. Public; never cached (prices and
 * spaces change), so it goes straight to the server.
 * @param {string} lotId @param {Date} start @param {Date} end
 */
export function quote(lotId, start, end) {
  const q = new URLSearchParams({ start: start.toISOString(), end: end.toISOString() });
  return send('GET', `/v1/lots/${id(lotId)}/booking-quote?${q}`);
}

export const listBookings = () => savedRead('/v1/bookings');

/**
 * A weekly booking: the first range, the weekdays (1 = Sunday … 7 = Saturday) and the last
 * site-local day (YYYY-MM-DD). The quote is public and priced date by date.
 * @param {{lotId: string, start: Date, end: Date, weekdays: number[], until: string}} s
 */
const seriesBody = (s) => ({ lotId: s.lotId, start: s.start.toISOString(), end: s.end.toISOString(), weekdays: s.weekdays, until: s.until });
export const quoteSeries = (s) => send('POST', '/v1/booking-series/quote', { json: seriesBody(s) });
/** Needs a connection: a term of bookings is not something to pay for unseen. */
export const bookSeries = (s, key) => authed('POST', '/v1/booking-series', { json: seriesBody(s), headers: { 'Idempotency-Key': key } });
export const getSeries = (seriesId) => authed('GET', `/v1/booking-series/${id(seriesId)}`);
export const cancelSeries = (seriesId) => authed('POST', `/v1/booking-series/${id(seriesId)}/cancel`);

/**
 * Books a space, now or (offline) when the server can be reached, with the intent's key.
 * @param {{key: string, label: string, lot: {id: string, code: string, name: string}, start: Date, end: Date}} b
 */
export function book(b) {
  const range = { start: b.start.toISOString(), end: b.end.toISOString() };
  return sendOrQueue({
    kind: 'booking',
    key: b.key,
    label: b.label,
    method: 'POST',
    path: '/v1/bookings',
    json: { lotId: b.lot.id, ...range },
    ref: { lotId: b.lot.id, lotCode: b.lot.code, lotName: b.lot.name, ...range },
  });
}

/** @param {string} bookingId @param {string} label */
export const cancelBooking = (bookingId, label) => sendOrQueue({
  kind: 'cancel-booking', label, method: 'POST', path: `/v1/bookings/${id(bookingId)}/cancel`, ref: { bookingId },
});

/**
 * A new time for a booking, sent now or queued; a resend after a lost answer finds the time
 * already set, which is what was wanted.
 * @param {string} bookingId @param {Date} start @param {Date} end @param {string} label
 */
export const modifyBooking = (bookingId, start, end, label) => sendOrQueue({
  kind: 'change-booking', label, method: 'PATCH', path: `/v1/bookings/${id(bookingId)}`,
  json: { start: start.toISOString(), end: end.toISOString() }, ref: { bookingId }, supersedes: true, alreadyDone: ['booking-same-range'],
});

/** @param {string} bookingId */
export const checkIn = (bookingId) => authed('POST', `/v1/bookings/${id(bookingId)}/check-in`);

// ---- The weekly schedule and its lot advice (PRK-16) ----

export const getSchedule = () => savedRead('/v1/me/schedule');
/**
 * Writes a block under its id, sent now or queued; a new id (made here) adds the block, so a
 * block added offline can be given its lot before it is sent.
 * @param {string} blockId @param {{weekday: number, startSlot: number, endSlot: number, lotId?: string}} block
 * @param {string} label @param {string} [lotName] to draw the block while it waits
 */
export const putBlock = (blockId, block, label, lotName) => sendOrQueue({
  kind: 'schedule', label, method: 'PUT', path: `/v1/me/schedule/blocks/${id(blockId)}`, json: block, ref: { blockId, lotName }, supersedes: true,
});
/** A block already gone (or added and deleted offline, so never sent) counts as deleted. @param {string} blockId */
export const deleteBlock = (blockId, label) => sendOrQueue({
  kind: 'schedule', label, method: 'DELETE', path: `/v1/me/schedule/blocks/${id(blockId)}`, ref: { blockId }, supersedes: true,
  alreadyDone: ['not-found'],
});
/** @param {URLSearchParams} q siteId, weekday, startSlot, endSlot */
export const lotAdvice = (q) => authed('GET', `/v1/me/schedule/lot-advice?${q}`);

// ---- Reviews and lot filters (PRK-14) ----

const reviewsPath = (lotId) => `/v1/lots/${id(lotId)}/reviews`;

/** A page of reviews, newest first, with the lot's rating; signed in, also `mine`. @param {string} lotId */
export function listReviews(lotId, cursor = '') {
  const path = `${reviewsPath(lotId)}${cursor ? `?cursor=${id(cursor)}` : ''}`;
  return signedIn() ? authed('GET', path) : send('GET', path);
}

/**
 * Writes or edits your review; a newer one made offline replaces an older one still waiting.
 * @param {{id: string, code: string}} lot @param {number} stars @param {string} text
 */
export function putReview(lot, stars, text) {
  return sendOrQueue({
    kind: 'review',
    label: `Review ${lot.code} · ${'★'.repeat(stars)}`,
    method: 'PUT',
    path: `${reviewsPath(lot.id)}/me`,
    json: { stars, text },
    ref: { lotId: lot.id, stars, text },
    supersedes: true,
  });
}

/** @param {{id: string, code: string}} lot */
export function deleteReview(lot) {
  return sendOrQueue({
    kind: 'review-delete',
    label: `Delete review of ${lot.code}`,
    method: 'DELETE',
    path: `${reviewsPath(lot.id)}/me`,
    ref: { lotId: lot.id },
    supersedes: true,
  });
}

/**
 * The site's lots that match: every key left out lets every lot through.
 * @param {string} siteId
 * @param {{ratingAbove?: number, lat?: number, lon?: number, radius?: number, keysRequired?: boolean,
 *   permit?: string[], maxHourlyCents?: number}} f
 */
export function findLots(siteId, f) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) {
    if (v == null) continue;
    if (Array.isArray(v)) v.forEach((p) => q.append(k, p));
    else q.set(k, String(v));
  }
  return send('GET', `/v1/sites/${id(siteId)}/lots?${q}`);
}
