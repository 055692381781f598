// Lot reviews and lot filters (PRK-14) as the server offers them. Writing a review goes through
// the outbox (`../accounts/outbox.js`): offline it waits and is sent once, with its
// Idempotency-Key, when the server can be reached (PRK-19).

import { send } from '../shell/api.js';
import { authed, signedIn } from '../accounts/session.js';
import { sendOrQueue } from '../accounts/outbox.js';

const reviewsPath = (lotId) => `/v1/lots/${encodeURIComponent(lotId)}/reviews`;

/** A page of reviews, newest first, with the lot's rating; signed in, also `mine`. @param {string} lotId */
export function listReviews(lotId, cursor = '') {
  const path = `${reviewsPath(lotId)}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`;
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
  return send('GET', `/v1/sites/${encodeURIComponent(siteId)}/lots?${q}`);
}
