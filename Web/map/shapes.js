// Polygons and lines in geographic coordinates. Rings are projected once and kept with their
// bounding box, so a frame only transforms the shapes that touch the viewport.

import { toMercator } from './projection.js';

/**
 * @typedef {object} Shape
 * @property {string} id
 * @property {'polygon'|'line'} kind
 * @property {import('./projection.js').LatLon[]} coords polygon rings are open (not closed)
 * @property {string} [fill]
 * @property {string} [stroke]
 * @property {number} [width] CSS pixels
 * @property {number[]} [dash]
 * @property {any} [data] returned by hit tests
 */

const projected = new WeakMap();

function project(shape) {
  let p = projected.get(shape.coords);
  if (!p) {
    const pts = shape.coords.map(toMercator);
    const xs = pts.map((q) => q.x);
    const ys = pts.map((q) => q.y);
    p = { pts, box: { minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) } };
    projected.set(shape.coords, p);
  }
  return p;
}

const overlaps = (a, b) => a.minX <= b.maxX && a.maxX >= b.minX && a.minY <= b.maxY && a.maxY >= b.minY;

/**
 * @param {{id: string, zIndex?: number, shapes: (frame: import('./camera.js').Frame) => Shape[], minZoom?: number,
 *          hittable?: boolean, opaque?: () => boolean}} o  opaque: the fills have no transparency now
 */
export function shapeLayer(o) {
  return {
    covers(f) {
      if (!o.opaque?.() || f.zoom < (o.minZoom ?? 0)) return false;
      return o.shapes(f).some((s) => s.kind === 'polygon' && s.fill && overlaps(project(s).box, f.bounds) &&
        coversScreen(project(s).pts.map((m) => f.toScreen(m.x, m.y)), f.width, f.height));
    },
    id: o.id,
    zIndex: o.zIndex ?? 20,
    /** @param {CanvasRenderingContext2D} ctx @param {import('./camera.js').Frame} f */
    draw(ctx, f) {
      if (f.zoom < (o.minZoom ?? 0)) return;
      const opaque = o.opaque?.() ?? false;
      for (const s of o.shapes(f)) {
        const { pts, box } = project(s);
        if (!overlaps(box, f.bounds)) continue;
        const scr = pts.map((m) => f.toScreen(m.x, m.y));
        // A polygon that covers the whole screen is one axis-aligned fill: far cheaper to
        // rasterise on every frame of a rotation than the rotated polygon itself.
        if (opaque && s.kind === 'polygon' && s.fill && coversScreen(scr, f.width, f.height)) {
          ctx.fillStyle = s.fill;
          ctx.fillRect(0, 0, f.width, f.height);
          continue;
        }
        ctx.beginPath();
        scr.forEach((q, i) => {
          if (i === 0) ctx.moveTo(q.x, q.y); else ctx.lineTo(q.x, q.y);
        });
        if (s.kind === 'polygon') ctx.closePath();
        if (s.fill && s.kind === 'polygon') { ctx.fillStyle = s.fill; ctx.fill(); }
        if (s.stroke) {
          ctx.strokeStyle = s.stroke;
          ctx.lineWidth = s.width ?? 1;
          ctx.lineJoin = 'round';
          ctx.lineCap = 'round';
          ctx.setLineDash(s.dash ?? []);
          ctx.stroke();
          ctx.setLineDash([]);
        }
      }
    },
    hitTest(x, y, f) {
      if (o.hittable === false || f.zoom < (o.minZoom ?? 0)) return null;
      const shapes = o.shapes(f);
      for (let i = shapes.length - 1; i >= 0; i--) {
        const s = shapes[i];
        const { pts } = project(s);
        const scr = pts.map((m) => f.toScreen(m.x, m.y));
        if (s.kind === 'polygon' ? inside(scr, x, y) : nearLine(scr, x, y, (s.width ?? 1) / 2 + 8)) return s.data ?? s;
      }
      return null;
    },
  };
}

/** Whether a polygon (screen points) contains the whole screen: its corners, with no edge crossing it. */
function coversScreen(pts, w, h) {
  if (!inside(pts, 0, 0) || !inside(pts, w, 0) || !inside(pts, 0, h) || !inside(pts, w, h)) return false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    if (segmentMeetsBox(pts[j], pts[i], w, h)) return false;
  }
  return true;
}

/** Liang–Barsky: does the segment a→b enter the box [0, w] × [0, h]? */
function segmentMeetsBox(a, b, w, h) {
  let t0 = 0;
  let t1 = 1;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  for (const [p, q] of [[-dx, a.x], [dx, w - a.x], [-dy, a.y], [dy, h - a.y]]) {
    if (p === 0) { if (q < 0) return false; continue; }
    const t = q / p;
    if (p < 0) { if (t > t1) return false; if (t > t0) t0 = t; } else { if (t < t0) return false; if (t < t1) t1 = t; }
  }
  return true;
}

/** Whether (x, y) lies inside the polygon `pts` ({x, y} points, open or closed), by ray crossing. */
export function inside(pts, x, y) {
  let hit = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const a = pts[i];
    const b = pts[j];
    if ((a.y > y) !== (b.y > y) && x < ((b.x - a.x) * (y - a.y)) / (b.y - a.y) + a.x) hit = !hit;
  }
  return hit;
}

function nearLine(pts, x, y, tolerance) {
  for (let i = 1; i < pts.length; i++) {
    const a = pts[i - 1];
    const b = pts[i];
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len2 = dx * dx + dy * dy || 1;
    const t = Math.max(0, Math.min(1, ((x - a.x) * dx + (y - a.y) * dy) / len2));
    if (Math.hypot(a.x + t * dx - x, a.y + t * dy - y) <= tolerance) return true;
  }
  return false;
}
