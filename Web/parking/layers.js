// What parking puts on the map: the campus area, lot outlines, spot bars (PRK-8) and lot pins
// (seed 2.2). Spot bars show only within 3 zoom levels of the maximum and only for the chosen
// level of a structure; pins are coloured by the congestion level the API reports.

import { shapeLayer } from '../map/shapes.js';
import { rectLayer } from '../map/rects.js';
import { pinLayer } from '../map/pins.js';
import { toMercator } from '../map/projection.js';
import { palette } from '../shell/theme.js';
import { congestionColours, spotPalette } from './colours.js';
import { number, isOpen, siteNow } from './format.js';

/** Below this zoom the campus is one pin instead of one per lot. */
export const SITE_PIN_ZOOM = 14;

/**
 * @param {ReturnType<typeof import('./store.js').createParkingStore>} store
 * @param {{spotMinZoom: number, selected: () => string|null, allLevels?: () => boolean, tilesShown: () => boolean}} o
 */
export function parkingLayers(store, o) {
  const s = store.state;
  let shapes = /** @type {any[]} */ ([]);
  let campus = /** @type {any[]} */ ([]);
  let pins = /** @type {any[]} */ ([]);
  let sitePins = /** @type {any[]} */ ([]);
  /** @type {Map<string, {minX: number, minY: number, maxX: number, maxY: number}>} */
  const boxes = new Map();
  let openMinute = -1;
  let openNow = new Map();

  /** Over a base map, fills let it show through; on the plain ground they are solid. */
  let overTiles = false;
  const fillOf = (colour) => (overTiles ? translucent(colour, 0.55) : colour);

  function rebuildShapes() {
    const p = palette();
    const sel = o.selected();
    overTiles = o.tilesShown();
    campus = [];
    if (s.site?.bounds) {
      const b = s.site.bounds;
      campus.push({
        id: 'campus', kind: 'polygon', fill: p.campus, stroke: p['campus-stroke'], width: 1,
        coords: campusRing(b),
      });
    }
    shapes = s.lots.map((lot) => ({
      id: lot.id,
      kind: 'polygon',
      coords: ringOf(lot),
      fill: fillOf(lot.kind === 'structure' ? p.structure : p.lot),
      stroke: lot.id === sel ? p.selected : lot.kind === 'structure' ? p['structure-stroke'] : p['lot-stroke'],
      width: lot.id === sel ? 3 : 1.2,
      data: { lotId: lot.id },
    }));
    for (const lot of s.lots) {
      if (boxes.has(lot.id)) continue;
      const ms = lot.footprint.map((q) => toMercator({ lat: q.latitude, lon: q.longitude }));
      boxes.set(lot.id, {
        minX: Math.min(...ms.map((m) => m.x)), maxX: Math.max(...ms.map((m) => m.x)),
        minY: Math.min(...ms.map((m) => m.y)), maxY: Math.max(...ms.map((m) => m.y)),
      });
    }
  }

  // Rings are cached by identity so the shape layer projects each one once.
  const rings = new Map();
  function ringOf(lot) {
    let r = rings.get(lot.id);
    if (!r) { r = lot.footprint.map((q) => ({ lat: q.latitude, lon: q.longitude })); rings.set(lot.id, r); }
    return r;
  }
  let campusCache = null;
  function campusRing(b) {
    if (!campusCache) campusCache = [{ lat: b.north, lon: b.west }, { lat: b.north, lon: b.east }, { lat: b.south, lon: b.east }, { lat: b.south, lon: b.west }];
    return campusCache;
  }

  function rebuildPins() {
    const sel = o.selected();
    const now = siteNow(s.site?.timeZone ?? 'UTC');
    if (now.minute !== openMinute) {
      openMinute = now.minute;
      openNow = new Map(s.lots.map((l) => [l.id, isOpen(l.hours, now)]));
    }
    pins = s.lots.map((lot) => {
      const occ = s.occupancy.get(lot.id);
      // A lot none of whose sensors has reported yet (a newly imported site) has no figures to trust.
      const silent = !!occ && occ.total > 0 && occ.unknown >= occ.total;
      const c = congestionColours(silent ? 'unknown' : occ?.level ?? 'unknown');
      const open = openNow.get(lot.id) ?? true;
      return {
        id: lot.id,
        lat: lot.center.latitude,
        lon: lot.center.longitude,
        label: lot.code,
        fill: c.fill,
        text: c.text,
        caption: !open ? 'Closed' : silent ? 'No data yet' : occ ? `${number(occ.free)} free` : '',
        selected: lot.id === sel,
        data: { lotId: lot.id, level: silent ? 'unknown' : occ?.level ?? 'unknown', colour: c.fill, priority: lot.capacity },
      };
    });
    // Zoomed out, the lots' pins would pile up: the campus shows as one pin with its totals.
    let total = 0;
    let taken = 0;
    let free = 0;
    let unknown = 0;
    for (const occ of s.occupancy.values()) { total += occ.total; taken += occ.total * occ.fraction; free += occ.free; unknown += occ.unknown; }
    const fraction = total ? taken / total : 0;
    const silentSite = total > 0 && unknown >= total;
    const level = !total || silentSite ? 'unknown' : fraction >= 0.85 ? 'red' : fraction >= 0.65 ? 'yellow' : 'green';
    const c = congestionColours(level);
    sitePins = s.site ? [{
      id: `site:${s.site.id}`, lat: s.site.center.latitude, lon: s.site.center.longitude,
      label: (s.site.code ?? '').toUpperCase(), fill: c.fill, text: c.text, radius: 22,
      caption: silentSite ? 'No data yet' : `${number(free)} free`, data: { site: s.site.id, level, colour: c.fill, priority: 1 },
    }] : [];
  }

  const spotLayer = rectLayer({
    id: 'spots',
    zIndex: 30,
    minZoom: o.spotMinZoom,
    palette: spotPalette,
    // The lot's own outline goes into the same bitmap as its spots: one image per lot to place.
    outlineStyle: (set) => {
      const p = palette();
      const lot = s.lotById.get(set.data?.lotId);
      const structure = lot?.kind === 'structure';
      return { fill: fillOf(structure ? p.structure : p.lot), stroke: structure ? p['structure-stroke'] : p['lot-stroke'], width: 1.2 };
    },
    sets: () => {
      const out = [];
      for (const [lotId, sp] of s.spots) {
        const lot = s.lotById.get(lotId);
        if (!lot) continue;
        if (lot.kind === 'structure' && !o.allLevels?.()) {
          const set = sp.sets.get(store.levelOf(lotId));
          if (set) out.push(set);
        } else {
          for (const set of sp.sets.values()) out.push(set);
        }
      }
      return out;
    },
  });

  const pinsLayer = pinLayer({
    id: 'pins',
    zIndex: 50,
    pins: (f) => (f.zoom < SITE_PIN_ZOOM ? sitePins : pins),
    // A little smaller at campus zoom, where neighbouring structures sit close together.
    scale: (zoom) => Math.max(0.85, Math.min(1, 0.85 + (zoom - 15.5) * 0.15)),
    captions: (zoom) => zoom < SITE_PIN_ZOOM || zoom >= 14.5,
    captionStyle: () => ({ bg: palette().surface, fg: palette().text }),
  });

  /** At spot zoom a lot whose spots are drawn needs only its selection outline here. */
  function lotShapes(f) {
    if (o.tilesShown() !== overTiles) rebuildShapes();
    if (f.zoom < o.spotMinZoom) return shapes;
    return shapes.flatMap((sh) => {
      if (!s.spots.has(sh.id)) return [sh];
      return sh.id === o.selected() ? [{ ...sh, fill: undefined }] : [];
    });
  }

  const layers = [
    // The campus tint is for the plain ground; a base map shows the campus itself.
    shapeLayer({ id: 'campus', zIndex: 15, shapes: () => (overTiles ? [] : campus), hittable: false, opaque: () => !overTiles }),
    shapeLayer({ id: 'lots', zIndex: 20, shapes: lotShapes, opaque: () => !overTiles }),
    spotLayer,
    pinsLayer,
  ];

  rebuildShapes();
  rebuildPins();

  return {
    layers,
    pinsLayer,
    spotLayer,
    /** Colours, selection or data changed. */
    refresh() { rebuildShapes(); rebuildPins(); },
    refreshPins: rebuildPins,
    /** Lots whose outline touches a mercator box. */
    lotsIn(box) {
      return s.lots.filter((l) => {
        const b = boxes.get(l.id);
        return b && b.minX <= box.maxX && b.maxX >= box.minX && b.minY <= box.maxY && b.maxY >= box.minY;
      });
    },
    boxOf: (lotId) => boxes.get(lotId),
  };
}

/** "#rrggbb" → "rgba(r, g, b, a)"; other colour forms are returned as they are. */
function translucent(colour, alpha) {
  const m = /^#([0-9a-f]{6})$/i.exec(colour);
  if (!m) return colour;
  const n = parseInt(m[1], 16);
  return `rgba(${n >> 16}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}
