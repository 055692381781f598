// What the Plan draws on the shared map: the day's events with a place as numbered stops in the
// order of the plan (the calendar's colour, its text colour for the number; a week's are
// marked with their day of the month instead), and each trip
// between them as a line from place to place (through its stops, for a timetable journey) in its
// mode's colour and dash. The trip to the next event is drawn wider; what is over is drawn
// faint. A past day has stops and no trips.

import { shapeLayer } from '../map/shapes.js';
import { pinLayer } from '../map/pins.js';
import { modeColours, DASHES } from './modes.js';
import { hexToRgb } from './contrast.js';

/**
 * @typedef {{label: string, lat: number, lon: number, fill: string, text: string, title: string,
 *   eventId: string, day: string, faded?: boolean, selected?: boolean}} Stop
 * @typedef {{id: string, mode: string, from: {lat: number, lon: number}, to: {lat: number, lon: number},
 *   via?: {lat: number, lon: number}[], next?: boolean, faded?: boolean}} Trip
 * @typedef {{stops: Stop[], trips: Trip[], place: {lat: number, lon: number, name: string}|null}} MapView
 */

/** Nothing drawn: the Plan is hidden, or its screen has nothing to place. @type {MapView} */
export const NOTHING = Object.freeze({ stops: [], trips: [], place: null });

/** A colour at 40 % opacity, for what is over. @param {string} hex */
function faint(hex) {
  const c = hexToRgb(hex);
  return c ? `rgba(${c.r}, ${c.g}, ${c.b}, 0.4)` : hex;
}

/** A caption short enough to sit under a stop. */
const short = (name) => (name && name.length > 24 ? `${name.slice(0, 23).trimEnd()}…` : name);

/** @param {any} map @param {() => MapView} view */
export function addPlanLayers(map, view) {
  // Lines are projected once per coordinate array, so each trip keeps its arrays.
  const lines = new Map();
  const coords = (/** @type {Trip} */ t) => {
    const points = [t.from, ...(t.via ?? []), t.to];
    const key = points.map((p) => `${p.lat},${p.lon}`).join(';');
    let c = lines.get(key);
    if (!c) {
      c = points.filter((p, i) => i === 0 || p.lat !== points[i - 1].lat || p.lon !== points[i - 1].lon).map((p) => ({ lat: p.lat, lon: p.lon }));
      if (lines.size > 200) lines.clear();
      lines.set(key, c);
    }
    return c;
  };
  map.addLayer(shapeLayer({
    id: 'plan-trips',
    zIndex: 46,
    hittable: false,
    shapes: () => {
      const c = modeColours();
      const out = [];
      for (const t of view().trips) {
        const width = t.mode === 'none' ? 3 : t.next ? 7 : 5;
        const line = coords(t);
        // A pale halo under each line keeps it readable over any map.
        out.push({ id: `${t.id}-halo`, kind: 'line', coords: line, stroke: c.halo, width: width + 4 });
        out.push({ id: t.id, kind: 'line', coords: line, stroke: t.faded ? faint(c[t.mode]) : c[t.mode],
          width, dash: DASHES[t.mode]?.map((d) => d * (width / 5)) });
      }
      return out;
    },
  }));

  map.addLayer(pinLayer({
    id: 'plan-stops',
    zIndex: 53,
    captions: (zoom) => zoom >= 12,
    scale: (zoom) => (zoom >= 14 ? 0.85 : 0.7),
    pins: () => {
      const v = view();
      const ring = modeColours()['stop-ring'];
      const out = v.stops.map((s) => ({
        id: `${s.eventId}|${s.day}`, lat: s.lat, lon: s.lon, label: s.label, fill: s.faded ? '#8a94a3' : s.fill,
        text: s.faded ? '#ffffff' : s.text, ring, radius: 17, selected: !!s.selected, caption: short(s.title),
        data: { eventId: s.eventId, day: s.day, priority: s.selected ? 2 : s.faded ? 0 : 1 },
      }));
      if (v.place) out.push({ id: 'place', lat: v.place.lat, lon: v.place.lon, label: '●', fill: '#0a6cff', text: '#ffffff', ring, radius: 15,
        selected: true, caption: short(v.place.name), data: null });
      return out;
    },
  }));
}

/** The box around everything a view draws, or null when it draws nothing. @param {MapView} v */
export function viewBounds(v) {
  const pts = [...v.stops, ...v.trips.flatMap((t) => [t.from, ...(t.via ?? []), t.to]), ...(v.place ? [v.place] : [])];
  if (!pts.length) return null;
  const lats = pts.map((p) => p.lat);
  const lons = pts.map((p) => p.lon);
  return { south: Math.min(...lats), north: Math.max(...lats), west: Math.min(...lons), east: Math.max(...lons) };
}
