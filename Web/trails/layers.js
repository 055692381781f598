// What Trails draws on the shared map: each listed trail as a line in its tier's colour (easy
// green, moderate yellow, hard orange) over a dark halo so yellow reads on a pale map, a
// trailhead pin at its start, and for the trail that is open its full path wider, with its
// points of interest.

import { shapeLayer } from '../map/shapes.js';
import { pinLayer } from '../map/pins.js';

export const TIER_COLOURS = { easy: '#2e9d44', moderate: '#f2c200', hard: '#f07c12' };
const HALO = 'rgba(30, 30, 30, 0.55)';

/**
 * @typedef {{trails: any[], open: any|null, pin?: {latitude: number, longitude: number}|null, hike?: number[][]|null}} TrailsView
 *   trails: summaries with `line`; open: the trail page shown, or null; pin: a forum post's spot;
 *   hike: a hike's path, [lat, lon] pairs
 */

const coordsCache = new WeakMap();
/** @param {number[][]} pairs [lat, lon] or [lat, lon, ele] */
function coords(pairs) {
  let c = coordsCache.get(pairs);
  if (!c) { c = pairs.map(([lat, lon]) => ({ lat, lon })); coordsCache.set(pairs, c); }
  return c;
}

/** Glyphs in a 24 × 24 box: the trailhead, and each kind of point of interest. */
const GLYPHS = {
  trailhead: 'M3 19.5 9.5 8l3.5 6 2-3 6 8.5z',
  pin: 'M12 21s-6.5-6.2-6.5-11a6.5 6.5 0 0 1 13 0c0 4.8-6.5 11-6.5 11z M12 7.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z',
  landmark: 'M12 3.5l2.6 5.6 6 .6-4.5 4 1.3 6-5.4-3.1-5.4 3.1 1.3-6-4.5-4 6-.6z',
  scenicOverlook: 'M2.5 19.5 9 9l3 4.5 3-4.5 6.5 10.5z M15 5.5a2 2 0 1 1 0 .1z',
  waterfall: 'M5 4.5h14v2H5z M7 8h2v11H7z M11 8h2v12h-2z M15 8h2v11h-2z',
  plant: 'M12 20.5v-7 M12 13.5c-5 0-7-4-7-8 4 0 7 2 7 8z M12 11.5c0-4 2.5-6.5 7-6.5 0 4.5-2.5 6.5-7 6.5z',
  animal: 'M12 12.5a4 3.5 0 1 1 0 7 4 3.5 0 0 1 0-7z M6 8a1.8 2.2 0 1 1 0 .1z M10 5a1.8 2.2 0 1 1 0 .1z M14 5a1.8 2.2 0 1 1 0 .1z M18 8a1.8 2.2 0 1 1 0 .1z',
};
const paths = {};
const glyph = (name) => (paths[name] ??= new Path2D(GLYPHS[name] ?? GLYPHS.landmark));

/** @param {any} map @param {() => TrailsView} view */
export function addTrailLayers(map, view) {
  map.addLayer(shapeLayer({
    id: 'trails-lines',
    // Just under Parking's spots (30), as the heads are under its lot pins (50): Parking's layers
    // stay on the map in every area, and the order holds whichever area starts first.
    zIndex: 29.5,
    shapes: () => {
      const v = view();
      const out = [];
      for (const t of v.trails) {
        if (!t.line?.length || t.id === v.open?.summary.id) continue;
        const c = coords(t.line);
        out.push({ id: `${t.id}-halo`, kind: 'line', coords: c, stroke: HALO, width: 6 });
        out.push({ id: t.id, kind: 'line', coords: c, stroke: TIER_COLOURS[t.difficulty], width: 3.5, data: { trailId: t.id } });
      }
      if (v.open) {
        const c = coords(v.open.path);
        const colour = TIER_COLOURS[v.open.summary.difficulty];
        out.push({ id: 'open-halo', kind: 'line', coords: c, stroke: HALO, width: 9 });
        out.push({ id: 'open', kind: 'line', coords: c, stroke: colour, width: 6, data: { trailId: v.open.summary.id } });
      }
      if (v.hike?.length > 1) {
        const c = v.hike.map(([lat, lon]) => ({ lat, lon }));
        out.push({ id: 'hike-halo', kind: 'line', coords: c, stroke: '#ffffff', width: 7 });
        out.push({ id: 'hike', kind: 'line', coords: c, stroke: '#1a73e8', width: 4 });
      }
      return out;
    },
  }));

  map.addLayer(pinLayer({
    id: 'trails-heads',
    zIndex: 49.5,
    captions: (zoom) => zoom >= 12,
    scale: (zoom) => (zoom >= 13 ? 0.8 : 0.6),
    pins: () => {
      const v = view();
      const out = [];
      const heads = v.open ? [v.open.summary] : v.trails;
      for (const t of heads) {
        out.push({ id: `head-${t.id}`, lat: t.trailhead.latitude, lon: t.trailhead.longitude, icon: glyph('trailhead'), fill: TIER_COLOURS[t.difficulty],
          text: '#1e1e1e', ring: '#ffffff', radius: 15, selected: !!v.open, caption: t.name.length > 24 ? `${t.name.slice(0, 23)}…` : t.name,
          data: { trailId: t.id } });
      }
      for (const p of v.open?.points ?? []) {
        if (!p.position) continue;
        out.push({ id: `point-${p.id}`, lat: p.position.latitude, lon: p.position.longitude, icon: glyph(p.kind),
          fill: '#ffffff', text: '#1e1e1e', ring: '#1e1e1e', radius: 12, caption: p.name, data: { pointId: p.id } });
      }
      if (v.pin) {
        out.push({ id: 'forum-pin', lat: v.pin.latitude, lon: v.pin.longitude, icon: glyph('pin'), fill: '#d93025', text: '#ffffff', ring: '#ffffff',
          radius: 14, selected: true, caption: 'Forum post', data: { forumPin: true } });
      }
      return out;
    },
  }));
}

/** The box around a page's path, or the listed trails' lines. @param {TrailsView} v */
export function viewBounds(v) {
  const pts = v.open ? v.open.path : v.trails.flatMap((t) => t.line ?? []);
  if (!pts.length) return null;
  const lats = pts.map((p) => p[0]);
  const lons = pts.map((p) => p[1]);
  return { south: Math.min(...lats), north: Math.max(...lats), west: Math.min(...lons), east: Math.max(...lons) };
}
