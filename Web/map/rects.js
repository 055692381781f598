// Thousands of small rotated rectangles (parking spots). Each group (a lot's level) is drawn
// once, north up, into an offscreen bitmap at about the current zoom; a frame then only places
// that bitmap with the view's rotation — one image per group instead of hundreds of
// antialiased shapes, which is what keeps rotation and panning at 60 frames a second. Groups
// with the same box (the stacked levels of a structure) share one bitmap, drawn in order, so a
// frame places one image over those pixels, not one per level. The bitmap is redrawn when
// colours change or the zoom drifts, and groups too large for a bitmap are drawn shape by
// shape, culled to the viewport and filled in one path per colour.

import { toMercator, unitsPerMetre } from './projection.js';

/** Palette index meaning "do not draw". */
export const HIDDEN = 255;

/** Largest cache bitmap, in device pixels. */
const MAX_CACHE_PIXELS = 4_000_000;
const MAX_CACHE_SIDE = 4096;
/** Zoom drift (levels) before a cached bitmap is redrawn at the new scale. */
const REDRAW_DRIFT = 0.5;

/**
 * A group of rectangles sharing a bounding box (one lot level, say). Whoever changes `colour`
 * must increase `version`, so cached drawings are renewed.
 * @typedef {object} RectSet
 * @property {string} id
 * @property {number} count
 * @property {Float64Array} geom 6 per rect: centre x, y, half-length vector x, y, half-width vector x, y (mercator)
 * @property {Uint8Array} colour palette index per rect, HIDDEN to skip
 * @property {number} version
 * @property {{minX: number, minY: number, maxX: number, maxY: number}} box
 * @property {{x: number, y: number}[]} [outline] a ground polygon (mercator) drawn under the rectangles
 * @property {any} [data]
 */

/**
 * Builds a set from centres, headings (degrees clockwise from north) and sizes in metres.
 * @param {string} id
 * @param {{lat: number, lon: number, heading: number, length: number, width: number}[]} items
 * @param {number} [inset] fraction of each side kept, so neighbours show a gap
 * @param {{lat: number, lon: number}[]} [outline] ground polygon drawn under the rectangles
 * @returns {RectSet}
 */
export function makeRectSet(id, items, inset = 1, outline = undefined) {
  const n = items.length;
  const geom = new Float64Array(n * 6);
  let minX = Infinity; let minY = Infinity; let maxX = -Infinity; let maxY = -Infinity;
  items.forEach((it, i) => {
    const m = toMercator(it);
    const k = unitsPerMetre(it.lat);
    const h = (it.heading * Math.PI) / 180;
    const hl = (it.length / 2) * k * inset;
    const hw = (it.width / 2) * k * inset;
    const o = i * 6;
    geom[o] = m.x; geom[o + 1] = m.y;
    geom[o + 2] = Math.sin(h) * hl; geom[o + 3] = -Math.cos(h) * hl;
    geom[o + 4] = Math.cos(h) * hw; geom[o + 5] = Math.sin(h) * hw;
    const ext = hl + hw;
    minX = Math.min(minX, m.x - ext); maxX = Math.max(maxX, m.x + ext);
    minY = Math.min(minY, m.y - ext); maxY = Math.max(maxY, m.y + ext);
  });
  const ring = outline?.map(toMercator);
  for (const m of ring ?? []) {
    minX = Math.min(minX, m.x); maxX = Math.max(maxX, m.x);
    minY = Math.min(minY, m.y); maxY = Math.max(maxY, m.y);
  }
  return { id, count: n, geom, colour: new Uint8Array(n), version: 0, box: { minX, minY, maxX, maxY }, outline: ring };
}

/** Fills and strokes a set's ground polygon under the same transform as its rectangles. */
function traceOutline(ctx, s, style, t) {
  if (!s.outline?.length || !style) return;
  ctx.beginPath();
  s.outline.forEach((m, i) => {
    const dx = m.x - t.mx;
    const dy = m.y - t.my;
    const x = t.cx + t.a * dx + t.c * dy;
    const y = t.cy - t.c * dx + t.a * dy;
    if (i === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
  });
  ctx.closePath();
  if (style.fill) { ctx.fillStyle = style.fill; ctx.fill(); }
  if (style.stroke) {
    ctx.strokeStyle = style.stroke;
    ctx.lineWidth = (style.width ?? 1) * (t.lineScale ?? 1);
    ctx.lineJoin = 'round';
    ctx.stroke();
  }
}

/**
 * Appends the rectangles of some sets to per-colour paths, transformed by (a, c) about a
 * centre; returns how many were inside the clip box.
 */
function trace(ctx, sets, palette, t) {
  const buckets = palette.map(() => /** @type {number[]} */ ([]));
  let n = 0;
  const { a, c, mx, my, cx, cy, x0, y0, x1, y1 } = t;
  const pts = [];
  for (const s of sets) {
    const g = s.geom;
    const col = s.colour;
    for (let i = 0; i < s.count; i++) {
      const p = col[i];
      if (p === HIDDEN || p >= palette.length) continue;
      const b = i * 6;
      const dx = g[b] - mx;
      const dy = g[b + 1] - my;
      const x = cx + a * dx + c * dy;
      const y = cy - c * dx + a * dy;
      if (x < x0 || y < y0 || x > x1 || y > y1) continue;
      const lx = a * g[b + 2] + c * g[b + 3];
      const ly = -c * g[b + 2] + a * g[b + 3];
      const wx = a * g[b + 4] + c * g[b + 5];
      const wy = -c * g[b + 4] + a * g[b + 5];
      buckets[p].push(pts.length);
      pts.push(x + lx + wx, y + ly + wy, x + lx - wx, y + ly - wy, x - lx - wx, y - ly - wy, x - lx + wx, y - ly + wy);
      n++;
    }
  }
  for (let p = 0; p < palette.length; p++) {
    if (!buckets[p].length) continue;
    ctx.beginPath();
    for (const o of buckets[p]) {
      ctx.moveTo(pts[o], pts[o + 1]);
      ctx.lineTo(pts[o + 2], pts[o + 3]);
      ctx.lineTo(pts[o + 4], pts[o + 5]);
      ctx.lineTo(pts[o + 6], pts[o + 7]);
      ctx.closePath();
    }
    ctx.fillStyle = palette[p];
    ctx.fill();
  }
  return n;
}

/** How many rectangle centres of a set fall inside the viewport (with a margin). */
function countVisible(s, f, margin) {
  const { a, c, mx, my } = f;
  const cx = f.width / 2;
  const cy = f.height / 2;
  let n = 0;
  for (let i = 0; i < s.count; i++) {
    if (s.colour[i] === HIDDEN) continue;
    const dx = s.geom[i * 6] - mx;
    const dy = s.geom[i * 6 + 1] - my;
    const x = cx + a * dx + c * dy;
    const y = cy - c * dx + a * dy;
    if (x >= -margin && y >= -margin && x <= f.width + margin && y <= f.height + margin) n++;
  }
  return n;
}

/**
 * @param {{id: string, zIndex?: number, minZoom?: number, palette: () => string[], sets: () => RectSet[],
 *          outlineStyle?: (set: RectSet) => {fill?: string, stroke?: string, width?: number}|null}} o
 */
export function rectLayer(o) {
  let lastCount = 0;
  /** @type {Map<string, {canvas: HTMLCanvasElement, scale: number, dpr: number, version: string, key: string, used: number}>} */
  const caches = new Map();
  let frameNo = 0;

  /** Draws sets sharing one box north up into one bitmap at `scale` CSS px per mercator unit. */
  function render(id, group, version, scale, dpr, palette, key) {
    const box = group[0].box;
    const w = Math.ceil((box.maxX - box.minX) * scale * dpr) + 4;
    const h = Math.ceil((box.maxY - box.minY) * scale * dpr) + 4;
    if (w * h > MAX_CACHE_PIXELS || w > MAX_CACHE_SIDE || h > MAX_CACHE_SIDE) return null;
    let entry = caches.get(id);
    const canvas = entry?.canvas ?? document.createElement('canvas');
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
    const g = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, w, h);
    const k = scale * dpr;
    const t = { a: k, c: 0, mx: box.minX, my: box.minY, cx: 2, cy: 2, x0: -Infinity, y0: -Infinity, x1: Infinity, y1: Infinity, lineScale: dpr };
    for (const s of group) {
      traceOutline(g, s, o.outlineStyle?.(s), t);
      trace(g, [s], palette, t);
    }
    entry = { canvas, scale, dpr, version, key, used: frameNo };
    caches.set(id, entry);
    return entry;
  }

  function evict() {
    if (caches.size <= 24) return;
    const old = [...caches.entries()].sort((p, q) => p[1].used - q[1].used).slice(0, caches.size - 24);
    for (const [id] of old) caches.delete(id);
  }

  return {
    id: o.id,
    zIndex: o.zIndex ?? 30,
    /** @param {CanvasRenderingContext2D} ctx @param {import('./camera.js').Frame} f */
    draw(ctx, f) {
      frameNo++;
      lastCount = 0;
      if (f.zoom < (o.minZoom ?? 0)) return;
      const palette = o.palette();
      const colours = palette.join();
      const dpr = f.pixelRatio;
      const sets = o.sets().filter((s) => s.box.minX <= f.bounds.maxX && s.box.maxX >= f.bounds.minX &&
        s.box.minY <= f.bounds.maxY && s.box.maxY >= f.bounds.minY);
      /** @type {Map<string, RectSet[]>} sets by their box, in drawing order */
      const groups = new Map();
      for (const s of sets) {
        lastCount += countVisible(s, f, 0);
        const b = s.box;
        const boxKey = `${b.minX},${b.minY},${b.maxX},${b.maxY}`;
        const group = groups.get(boxKey);
        if (group) group.push(s); else groups.set(boxKey, [s]);
      }
      const direct = [];
      for (const group of groups.values()) {
        const id = group.map((s) => s.id).join('|');
        const version = group.map((s) => s.version).join(',');
        const key = colours + JSON.stringify(group.map((s) => o.outlineStyle?.(s) ?? null));
        let entry = caches.get(id);
        const drift = entry ? Math.abs(Math.log2(f.scale / entry.scale)) : Infinity;
        // A bitmap drawn for more pixels serves a frame drawn with fewer (a moving map's).
        if (!entry || entry.version !== version || entry.key !== key || entry.dpr < dpr || drift > REDRAW_DRIFT) {
          entry = render(id, group, version, f.scale, Math.max(dpr, entry?.dpr ?? 0), palette, key);
        }
        if (!entry) { direct.push(...group); continue; }
        entry.used = frameNo;
        const box = group[0].box;
        // Bitmap pixel (u, v) is mercator box.min + (u − 2, v − 2) / (scale · entry.dpr).
        const o2 = f.toScreen(box.minX, box.minY);
        const ka = f.a / entry.scale / entry.dpr;
        const kc = f.c / entry.scale / entry.dpr;
        ctx.save();
        ctx.setTransform(ka * dpr, -kc * dpr, kc * dpr, ka * dpr, dpr * o2.x, dpr * o2.y);
        ctx.imageSmoothingEnabled = true;
        ctx.drawImage(entry.canvas, -2, -2);
        ctx.restore();
      }
      if (direct.length) {
        const margin = 20;
        const t = {
          a: f.a, c: f.c, mx: f.mx, my: f.my, cx: f.width / 2, cy: f.height / 2,
          x0: -margin, y0: -margin, x1: f.width + margin, y1: f.height + margin,
        };
        for (const s of direct) traceOutline(ctx, s, o.outlineStyle?.(s), t);
        trace(ctx, direct, palette, t);
      }
      evict();
    },
    /** @returns {{set: RectSet, index: number}|null} */
    hitTest(x, y, f) {
      if (f.zoom < (o.minZoom ?? 0)) return null;
      const s2 = f.scale * f.scale;
      const ux = x - f.width / 2;
      const uy = y - f.height / 2;
      const px = f.mx + (f.a * ux - f.c * uy) / s2;
      const py = f.my + (f.c * ux + f.a * uy) / s2;
      // A spot is small under a finger: accept taps within a few pixels of it.
      const slop = 4 / f.scale;
      for (const s of o.sets()) {
        if (px < s.box.minX - slop || px > s.box.maxX + slop || py < s.box.minY - slop || py > s.box.maxY + slop) continue;
        for (let i = 0; i < s.count; i++) {
          if (s.colour[i] === HIDDEN) continue;
          const b = i * 6;
          const dx = px - s.geom[b];
          const dy = py - s.geom[b + 1];
          const ll = Math.hypot(s.geom[b + 2], s.geom[b + 3]);
          const ww = Math.hypot(s.geom[b + 4], s.geom[b + 5]);
          const along = Math.abs((dx * s.geom[b + 2] + dy * s.geom[b + 3]) / ll);
          const across = Math.abs((dx * s.geom[b + 4] + dy * s.geom[b + 5]) / ww);
          if (along <= ll + slop && across <= ww + slop) return { set: s, index: i };
        }
      }
      return null;
    },
    /** Rectangles whose centre was inside the viewport in the last frame. */
    drawnCount: () => lastCount,
  };
}
