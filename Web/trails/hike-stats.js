// A hike's live figures in the browser (TRL-6): the same rules, constants and order of work as
// WaymarkCore's HikeFixFilter, HikeStatistics and ElevationProfile, so the Current Hike card shows
// what the server saves. Tests run both on the same fixes and compare. Change one, change both.

const EARTH_RADIUS = 6_371_008.8;
const FILTER = { maximumAccuracy: 30, maximumSpeed: 7, confirmations: 3 };
const MOVING_SPEED = 0.3;
const MINIMUM_STEP = 5;
const RECENT_SECONDS = 30;

/**
 * @typedef {{t: number, lat: number, lon: number, acc: number, ele?: number|null}} Fix
 *   t: milliseconds since 1970
 * @typedef {{heightCentimetres?: number|null, weightKilograms?: number|null, ageYears?: number|null}} Body
 */

/** Great-circle metres (haversine), as Geo.distance. */
export function distance(a, b) {
  const p1 = (a.lat * Math.PI) / 180, p2 = (b.lat * Math.PI) / 180;
  const dp = p2 - p1, dl = ((b.lon - a.lon) * Math.PI) / 180;
  const h = Math.sin(dp / 2) * Math.sin(dp / 2) + Math.cos(p1) * Math.cos(p2) * Math.sin(dl / 2) * Math.sin(dl / 2);
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(h)));
}

const plausible = (a, b) => { const s = (b.t - a.t) / 1000; return s > 0 && distance(a, b) / s <= FILTER.maximumSpeed; };
const valid = (f) => Number.isFinite(f.acc) && f.acc >= 0 && f.acc <= FILTER.maximumAccuracy && Number.isFinite(f.lat) && Number.isFinite(f.lon)
  && f.lat >= -90 && f.lat <= 90 && f.lon >= -180 && f.lon <= 180 && (f.ele == null || Number.isFinite(f.ele));

/** @param {Fix[]} fixes @returns {{segments: Fix[][], dropped: number}} */
export function segments(fixes) {
  const ordered = fixes.map((f, i) => [f, i]).sort((a, b) => a[0].t - b[0].t || a[1] - b[1]).map(([f]) => f);
  const out = [];
  let current = [], pending = [], dropped = 0;
  for (const fix of ordered) {
    if (!valid(fix)) { dropped += 1; continue; }
    const last = current[current.length - 1];
    if (!last) { current = [fix]; continue; }
    if (!(fix.t > last.t)) { dropped += 1; continue; }
    if (plausible(last, fix)) { dropped += pending.length; pending = []; current.push(fix); continue; }
    const p = pending[pending.length - 1];
    if (p && fix.t > p.t && plausible(p, fix)) pending.push(fix); else { dropped += pending.length; pending = [fix]; }
    if (pending.length >= FILTER.confirmations) { out.push(current); current = pending; pending = []; }
  }
  dropped += pending.length;
  if (current.length) out.push(current);
  return { segments: out, dropped };
}

/** Steps longer than the receivers' wander, timed from when the hiker was last seen at the start. @param {Fix[]} segment */
function steps(segment) {
  if (!segment.length) return [];
  let anchor = segment[0], seenAt = anchor.t, lastNear = 0;
  const out = [];
  for (const fix of segment.slice(1)) {
    const metres = distance(anchor, fix);
    if (!(metres >= Math.max(MINIMUM_STEP, (anchor.acc + fix.acc) / 2))) {
      if (metres <= lastNear) seenAt = fix.t;
      lastNear = metres;
      continue;
    }
    out.push({ from: anchor, to: fix, metres, seconds: (fix.t - seenAt) / 1000 });
    anchor = fix; seenAt = fix.t; lastNear = 0;
  }
  return out;
}

// ---- ElevationProfile's gain ----

function despike(e, limit) {
  if (e.length < 3) return e;
  const out = e.slice();
  for (let i = 0; i < e.length; i++) {
    const w = e.slice(Math.max(0, i - 3), Math.min(e.length - 1, i + 3) + 1).sort((a, b) => a - b);
    const median = w.length % 2 === 1 ? w[(w.length - 1) / 2] : (w[w.length / 2 - 1] + w[w.length / 2]) / 2;
    if (Math.abs(e[i] - median) > limit) out[i] = median;
  }
  return out;
}

function smooth(e, d, metres) {
  if (!(metres > 0) || e.length <= 2) return e;
  const out = e.slice();
  let lo = 0, hi = 0, sum = 0;
  for (let i = 0; i < e.length; i++) {
    while (hi < e.length && d[hi] <= d[i] + metres / 2) { sum += e[hi]; hi += 1; }
    while (d[lo] < d[i] - metres / 2) { sum -= e[lo]; lo += 1; }
    out[i] = sum / (hi - lo);
  }
  return out;
}

function climbGain(e, threshold) {
  if (!e.length) return 0;
  let gain = 0, low = e[0], high = e[0], turn = e[0], peak = e[0], up = null;
  for (const x of e.slice(1)) {
    if (up === null) {
      low = Math.min(low, x); high = Math.max(high, x);
      if (x - low >= threshold) { up = true; turn = low; peak = x; } else if (high - x >= threshold) { up = false; turn = high; peak = x; }
    } else if (up) {
      if (x > peak) peak = x; else if (peak - x >= threshold) { gain += peak - turn; turn = peak; peak = x; up = false; }
    } else if (x < peak) peak = x; else if (x - peak >= threshold) { turn = peak; peak = x; up = true; }
  }
  if (up === true) gain += peak - turn;
  return gain;
}

/** @param {{lat: number, lon: number, ele?: number|null}[]} points */
function profileGain(points) {
  const along = [], raw = [];
  let walked = 0, previous = null;
  for (const p of points) {
    if (previous) walked += distance(previous, p);
    previous = p;
    if (p.ele != null) { along.push(walked); raw.push(p.ele); }
  }
  return climbGain(smooth(despike(raw, 40), along, 30), 5);
}

const oxygen = (s, g) => (s <= 100 ? 0.1 * s + 1.8 * s * g + 3.5 : 0.2 * s + 0.9 * s * g + 3.5);

/**
 * The figures of a hike between `start` and `end` (ms since 1970), as HikeStatistics.
 * @param {Fix[]} fixes @param {number} start @param {number} end @param {Body} [body]
 */
export function hikeStatistics(fixes, start, end, body = {}) {
  const { segments: segs, dropped } = segments(fixes.filter((f) => f.t >= start && f.t <= end));
  let moving = 0, dist = 0, kcalPerKg = 0;
  /** @type {{lat: number, lon: number, ele?: number|null}[]} */
  let movingPoints = [];
  const recent = [];
  for (const segment of segs) {
    let run = [];
    for (const step of steps(segment)) {
      if ((end - step.to.t) / 1000 <= RECENT_SECONDS) recent.push(step);
      if (!(step.metres / step.seconds >= MOVING_SPEED)) {
        if (run.length > 1) movingPoints = movingPoints.concat(run);
        run = [];
        continue;
      }
      moving += step.seconds;
      dist += step.metres;
      if (!run.length) run.push(step.from);
      run.push(step.to);
      const rise = step.from.ele != null && step.to.ele != null ? step.to.ele - step.from.ele : 0;
      const grade = Math.min(0.45, Math.max(0, rise / step.metres));
      kcalPerKg += oxygen((step.metres / step.seconds) * 60, grade) * step.seconds / 60 / 1000 * 5;
    }
    if (run.length > 1) movingPoints = movingPoints.concat(run);
  }
  const elapsed = Math.max(0, (end - start) / 1000);
  const lastSegment = segs[segs.length - 1];
  const lastFix = lastSegment?.[lastSegment.length - 1];
  let currentSpeed = null;
  if (lastFix && (end - lastFix.t) / 1000 <= RECENT_SECONDS) {
    const seconds = recent.reduce((s, x) => s + x.seconds, 0);
    currentSpeed = seconds > 0 ? recent.filter((x) => x.metres / x.seconds >= MOVING_SPEED).reduce((s, x) => s + x.metres, 0) / seconds : 0;
  }
  const stride = ((body.heightCentimetres ?? 170) * 0.414) / 100;
  const hasCalories = body.heightCentimetres != null && body.weightKilograms != null && body.ageYears != null;
  return {
    elapsedSeconds: elapsed,
    movingSeconds: moving,
    distanceMetres: dist,
    gainMetres: movingPoints.length > 1 ? profileGain(movingPoints) : 0,
    averageSpeed: moving > 0 ? dist / moving : 0,
    currentSpeed,
    steps: stride > 0 ? Math.round(dist / stride) : 0,
    calories: hasCalories ? (kcalPerKg + (3.5 * Math.max(0, elapsed - moving)) / 60 / 1000 * 5) * /** @type {number} */ (body.weightKilograms) : null,
    keptFixes: segs.reduce((n, s) => n + s.length, 0),
    droppedFixes: dropped,
  };
}
