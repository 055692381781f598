// Words and numbers for soft holds (PRK-9, PRK-10): which permit a spot needs now, the red
// warning the server would give, the countdown and how far away the held spot is.

import { eitherPermit } from './permit-words.js';

/**
 * The permits of which one is needed on a spot now, or null when anyone may park there. As on
 * the server: an accessible spot needs the Handicap permit at all times; otherwise every lot
 * rule that applies now must be met, so their permits intersect.
 * @param {{category?: string}} spot
 * @param {{permitRules?: any[]}} lot
 * @param {{weekday: number, minute: number}} now site-local
 * @returns {string[]|null}
 */
export function requiredPermits(spot, lot, now) {
  if (spot.category === 'handicap') return ['handicap'];
  /** @type {string[]|null} */
  let required = null;
  for (const r of lot.permitRules ?? []) {
    if (!r.weekdays.includes(now.weekday) || now.minute < r.startMinute || now.minute >= r.endMinute) continue;
    required = required ? required.filter((p) => r.permits.includes(p)) : [...r.permits];
  }
  return required;
}

/**
 * Seed 7.1.1.2: the red line under the hold button when the user lacks the permit; the same
 * words as the hold's `permitWarning` from the server.
 * @param {string[]|null} required @param {string[]} holding the codes that count at the site
 * @param {any} site its permits name the codes
 * @returns {string|null}
 */
export function permitWarning(required, holding, site) {
  if (!required || required.some((p) => holding.includes(p))) return null;
  if (!required.length) return 'Nobody may park on this spot now.';
  return `This spot needs a ${eitherPermit(site, required)} permit now.`;
}

/** "9:05" for 545 000 ms; never negative. */
export function countdown(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** "9 minutes 5 seconds left", for screen readers. */
export function countdownWords(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  const parts = [];
  if (m) parts.push(`${m} minute${m === 1 ? '' : 's'}`);
  if (s || !m) parts.push(`${s} second${s === 1 ? '' : 's'}`);
  return `${parts.join(' ')} left`;
}

/** Great-circle distance in metres. @param {{lat: number, lon: number}} a @param {{lat: number, lon: number}} b */
export function metresBetween(a, b) {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** "120 m", "1.4 km", "390 ft", "0.8 mi". @param {number} metres @param {'km'|'mi'} units */
export function distanceText(metres, units) {
  if (units === 'mi') {
    const feet = metres / 0.3048;
    if (feet < 1000) return `${Math.max(10, Math.round(feet / 10) * 10)} ft`;
    return `${(metres / 1609.344).toFixed(1)} mi`;
  }
  if (metres < 1000) return `${Math.max(5, Math.round(metres / 5) * 5)} m`;
  return `${(metres / 1000).toFixed(1)} km`;
}
