// The hike being recorded, as this browser keeps it after every fix (TRL-6). Apart from the
// rest of Trails so the shell can tell at start, without loading Trails, that one is under way.

const KEY = 'waymark.trails.hike.v1';

/**
 * @typedef {{id: string, trailId: string, trailName: string, difficulty: string, timeZone?: string,
 *   path: number[][], lengthMetres: number, startedAt: number, stoppedAt: number|null,
 *   fixes: import('./hike-stats.js').Fix[], lastAccuracy: number|null}} Recording
 */

/** @returns {Recording|null} */
export function currentHike() {
  try { return JSON.parse(localStorage.getItem(KEY) ?? 'null'); } catch { return null; }
}

/** @param {Recording|null} r */
export function keepHike(r) {
  if (r) localStorage.setItem(KEY, JSON.stringify(r)); else localStorage.removeItem(KEY);
}

/** Whether a hike is being recorded now (started and not stopped). */
export const recording = () => { const r = currentHike(); return !!r && !r.stoppedAt; };
