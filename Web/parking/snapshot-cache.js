// The last known parking picture, kept on the device so the map opens with it when the server
// cannot be reached (PRK-19, seed 11.2). One small JSON document per site, overwritten by
// every newer snapshot; spot geometry is too big for it and lives in Cache Storage instead.

const KEY = 'waymark.parking.snapshot.v1';

/**
 * @typedef {object} SavedSnapshot
 * @property {string} asOf ISO time the data was known to be right
 * @property {number} lastEventId
 * @property {any} config
 * @property {any} site
 * @property {any[]} lots
 * @property {any[]} occupancy
 * @property {Record<string, {states: string, version: number}>} states
 */

/** @param {SavedSnapshot} snapshot */
export function saveSnapshot(snapshot) {
  try {
    localStorage.setItem(KEY, JSON.stringify(snapshot));
  } catch { /* private mode or full: the app still works, only without the offline copy */ }
}

/** @returns {SavedSnapshot|null} */
export function loadSnapshot() {
  try {
    const text = localStorage.getItem(KEY);
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}
