// What Rooms draws on the shared map: building footprints, the open level's floor plan with
// room numbers, pins for the layers a person switched on, and the route, the part on the level
// shown drawn solid and the rest faint.

import { shapeLayer } from '../map/shapes.js';
import { labelLayer } from '../map/labels.js';
import { pinLayer } from '../map/pins.js';
import { roomColours, unitFill } from './colours.js';

/** GeoJSON rings (outer rings only) as the map's open rings of {lat, lon}. */
export function rings(geometry) {
  if (!geometry) return [];
  const polys = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.type === 'MultiPolygon' ? geometry.coordinates : [];
  return polys.map((poly) => poly[0].slice(0, -1).map(([lon, lat]) => ({ lat, lon })));
}

/** A caption short enough to sit under a pin. @param {string|undefined} name */
const short = (name) => (name && name.length > 26 ? `${name.slice(0, 25).trimEnd()}…` : name);

/** Where a unit's name goes: its display point, else the middle of its outline's box. */
const labelPoints = new WeakMap();
function labelPoint(f) {
  if (f.properties.labelPoint) return { lat: f.properties.labelPoint.latitude, lon: f.properties.labelPoint.longitude };
  if (labelPoints.has(f)) return labelPoints.get(f);
  const ring = rings(f.geometry)[0];
  const at = ring?.length ? {
    lat: (Math.min(...ring.map((q) => q.lat)) + Math.max(...ring.map((q) => q.lat))) / 2,
    lon: (Math.min(...ring.map((q) => q.lon)) + Math.max(...ring.map((q) => q.lon))) / 2,
  } : null;
  labelPoints.set(f, at);
  return at;
}

const line = (geometry) => (geometry?.type === 'LineString' ? geometry.coordinates.map(([lon, lat]) => ({ lat, lon })) : null);

/** Pins by layer: glyphs drawn in a 24 × 24 box. */
const GLYPHS = {
  restroom: 'M8 4.5a1.8 1.8 0 1 1 0 3.6 1.8 1.8 0 0 1 0-3.6zM16 4.5a1.8 1.8 0 1 1 0 3.6 1.8 1.8 0 0 1 0-3.6zM6 9.5h4l1 6H9.6l-.6 4H7l-.6-4H5zM14 9.5h4v6h-1v4h-2v-4h-1z',
  elevator: 'M6 3.5h12v17H6zM12 6l2.5 3h-5zM12 18l-2.5-3h5z',
  service: 'M12 3.5a8.5 8.5 0 1 1 0 17 8.5 8.5 0 0 1 0-17zM11 10.5h2v7h-2zM11 6.5h2v2h-2z',
  bikes: 'M6.5 11a4 4 0 1 1 0 8 4 4 0 0 1 0-8zM17.5 11a4 4 0 1 1 0 8 4 4 0 0 1 0-8zM6.5 15l4-6h4l3 6M9 6.5h3',
};
const paths = {};
const glyph = (name) => (paths[name] ??= new Path2D(GLYPHS[name]));

/** The pin layer a feature belongs to, or null. */
export function pinKind(f) {
  const p = f.properties;
  const c = p.category ?? '';
  if (p.featureType === 'unit' && c.startsWith('restroom')) return 'restroom';
  if (p.featureType === 'unit' && c === 'elevator') return 'elevator';
  if (p.featureType === 'occupant') return 'service';
  if (p.featureType === 'amenity' && c === 'parking.bicycle') return 'bikes';
  return null;
}

/**
 * @param {any} map
 * @param {() => any} view what to draw now: {venue, building, plan, grounds, selected, route, levelId, start, layers}
 * @returns {void}
 */
export function addRoomLayers(map, view) {
  const colours = roomColours;
  const footprintCache = new WeakMap();
  const footprints = (venue) => {
    let out = footprintCache.get(venue);
    if (!out) {
      out = venue.buildings.flatMap((b) => rings(b.footprint).map((coords, i) => ({ id: `${b.id}#${i}`, kind: 'polygon', coords, data: { building: b } })));
      footprintCache.set(venue, out);
    }
    return out;
  };
  map.addLayer(shapeLayer({
    id: 'rooms-buildings',
    zIndex: 14,
    shapes: () => {
      const v = view();
      if (!v.venue) return [];
      const c = colours();
      return footprints(v.venue).map((s) => {
        const open = s.data.building.id === v.building?.id;
        return { ...s, fill: open ? c['building-open'] : c.building, stroke: c['building-stroke'], width: open ? 2 : 1 };
      });
    },
  }));

  const planCache = new WeakMap();
  const planShapes = (plan) => {
    let out = planCache.get(plan);
    if (!out) {
      out = [];
      for (const f of plan.features) {
        const t = f.properties.featureType;
        if (t === 'unit' || t === 'section' || t === 'fixture') {
          for (const [i, coords] of rings(f.geometry).entries()) out.push({ id: `${f.id}#${i}`, kind: 'polygon', coords, data: { feature: f } });
        } else if (t === 'opening') {
          const coords = line(f.geometry);
          if (coords) out.push({ id: f.id, kind: 'line', coords, data: null, door: true });
        }
      }
      planCache.set(plan, out);
    }
    return out;
  };
  map.addLayer(shapeLayer({
    id: 'rooms-plan',
    // Just under Parking's campus tint (15), whose layers stay on the map in every area: the
    // order holds whichever area starts first.
    zIndex: 14.5,
    shapes: () => {
      const v = view();
      const c = colours();
      const out = [];
      for (const plan of [...v.grounds, v.plan].filter(Boolean)) {
        for (const s of planShapes(plan)) {
          if (s.door) { out.push({ ...s, stroke: c.door, width: 3 }); continue; }
          const f = s.data.feature;
          const selected = v.selected && (f.id === v.selected.id || f.id === v.selected.unitId);
          out.push({ ...s, fill: selected ? c['room-selected'] : unitFill(f.properties.category), stroke: c['unit-stroke'], width: 1 });
        }
      }
      return out;
    },
  }));

  map.addLayer(labelLayer({
    id: 'rooms-labels',
    zIndex: 16,
    colours: () => ({ text: colours().label, halo: colours()['label-halo'] }),
    labels: (f) => {
      const v = view();
      if (!v.venue) return [];
      const out = [];
      if (v.plan && f.zoom >= 18.3) {
        for (const feat of v.plan.features) {
          const p = feat.properties;
          if (p.featureType !== 'unit' || !p.name || p.category === 'walkway') continue;
          const at = labelPoint(feat);
          if (at) out.push({ lat: at.lat, lon: at.lon, text: p.name, size: 11 });
        }
      }
      if (f.zoom >= 15.5) {
        for (const b of v.venue.buildings) {
          if (b.id === v.building?.id && f.zoom >= 18.3) continue;
          out.push({ lat: b.position.latitude, lon: b.position.longitude, text: f.zoom >= 17 ? b.name : (b.code ?? b.name), size: 12, bold: true });
        }
      }
      return out;
    },
  }));

  const pins = pinLayer({
    id: 'rooms-pins',
    zIndex: 52,
    captions: (zoom) => zoom >= 19,
    scale: (zoom) => (zoom >= 19 ? 0.8 : 0.65),
    pins: () => {
      const v = view();
      const c = colours();
      const out = [];
      for (const plan of [...v.grounds, v.plan].filter(Boolean)) {
        for (const f of plan.features) {
          const kind = pinKind(f);
          if (!kind || !v.layers[kind]) continue;
          const at = f.geometry?.type === 'Point' ? { lat: f.geometry.coordinates[1], lon: f.geometry.coordinates[0] } : labelPoint(f);
          if (!at) continue;
          out.push({ id: f.id, lat: at.lat, lon: at.lon, icon: glyph(kind), fill: c.route, text: '#fff', radius: 16,
            caption: short(f.properties.name), data: { feature: f } });
        }
      }
      // A room on the plan shown is highlighted already; a pin marks anything else chosen.
      const onPlan = v.selected?.levelId && v.selected.levelId === v.levelId;
      if (v.selected?.position && !onPlan) {
        out.push({ id: 'selected', lat: v.selected.position.latitude, lon: v.selected.position.longitude, label: '●', fill: c['room-selected'],
          text: '#fff', radius: 14, selected: true, data: null });
      }
      if (v.start) out.push({ id: 'start', lat: v.start.lat, lon: v.start.lon, label: 'You', fill: '#1a7f47', text: '#fff', radius: 16, selected: true, data: null });
      return out;
    },
  });
  map.addLayer(pins);

  map.addLayer(shapeLayer({
    id: 'rooms-route',
    zIndex: 44.5, // just under Parking's held spot (45), as rooms-plan is under its campus
    hittable: false,
    shapes: () => {
      const v = view();
      if (!v.route) return [];
      const c = colours();
      // The steps on the level shown (and outdoors) solid; the others faint and dashed.
      return v.route.steps.filter((s) => s.path.length > 1).map((s, i) => {
        const here = !s.levelId || s.levelId === v.levelId || (s.kind !== 'walk' && s.fromLevelId === v.levelId);
        return { id: `route-${i}`, kind: 'line', coords: s.path.map((p) => ({ lat: p.latitude, lon: p.longitude })),
          stroke: here ? c.route : c['route-other'], width: here ? 6 : 4, dash: here ? undefined : [6, 8] };
      });
    },
  }));
}
