// Bookings (PRK-12) as the server offers them. A booking carries an Idempotency-Key made once
// per intent (`newKey`), so a retry after a lost answer books and charges nothing twice; the
// caller keeps the key until the server has answered.

import { send, newKey } from '../shell/api.js';
import { authed } from '../accounts/session.js';

export { newKey };

/**
 * What a range would cost and whether a space is free. Public; never cached (prices and
 * spaces change), so it goes straight to the server.
 * @param {string} lotId @param {Date} start @param {Date} end
 */
export function quote(lotId, start, end) {
  const q = new URLSearchParams({ start: start.toISOString(), end: end.toISOString() });
  return send('GET', `/v1/lots/${encodeURIComponent(lotId)}/booking-quote?${q}`);
}

/** @param {{lotId: string, start: Date, end: Date}} b @param {string} key */
export function createBooking(b, key) {
  return authed('POST', '/v1/bookings', {
    json: { lotId: b.lotId, start: b.start.toISOString(), end: b.end.toISOString() },
    headers: { 'Idempotency-Key': key },
  });
}

export const listBookings = () => authed('GET', '/v1/bookings');

/** @param {string} id @param {Date} start @param {Date} end */
export const modifyBooking = (id, start, end) =>
  authed('PATCH', `/v1/bookings/${encodeURIComponent(id)}`, { json: { start: start.toISOString(), end: end.toISOString() } });

export const cancelBooking = (id) => authed('POST', `/v1/bookings/${encodeURIComponent(id)}/cancel`);
export const checkIn = (id) => authed('POST', `/v1/bookings/${encodeURIComponent(id)}/check-in`);
