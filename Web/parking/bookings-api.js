// Bookings (PRK-12) as the server offers them. Making a booking goes through the outbox
// (`../accounts/outbox.js`) with an Idempotency-Key made once per intent (`newKey`), so a
// retry after a lost answer books and charges nothing twice, and a booking made offline is
// sent when the server can be reached.

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

export const listBookings = () => authed('GET', '/v1/bookings');

/** @param {string} id @param {Date} start @param {Date} end */
export const modifyBooking = (id, start, end) =>
  authed('PATCH', `/v1/bookings/${encodeURIComponent(id)}`, { json: { start: start.toISOString(), end: end.toISOString() } });

export const checkIn = (id) => authed('POST', `/v1/bookings/${encodeURIComponent(id)}/check-in`);
