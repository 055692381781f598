// Labelled circular pins that stay upright and the same size whatever the zoom or bearing.
// Each look is drawn once into a small sprite (shadow and text are the costly parts of
// canvas drawing) and then only stamped, so hundreds of pins cost little per frame.

import { toMercator } from './projection.js';

/**
 * @typedef {object} Pin
 * @property {string} id
 * @property {number} lat
 * @property {number} lon
 * @property {string} [label] text inside the circle
 * @property {Path2D} [icon] a 24×24 glyph drawn instead of a label
 * @property {string} fill
 * @property {string} text colour of label or icon
 * @property {string} [ring] colour of the outline
 * @property {string} [caption] a small line under the circle
 * @property {boolean} [selected]
 * @property {number} [radius] CSS pixels
 * @property {any} [data]
 */

const FONT = '-apple-system, system-ui, "Segoe UI", Roboto, sans-serif';
const sprites = new Map();

/** Each glyph a number of its own, so two glyphs in one colour are two sprites. */
const iconIds = new WeakMap();
let nextIconId = 0;
const iconKey = (icon) => {
  if (!icon) return '';
  if (!iconIds.has(icon)) iconIds.set(icon, nextIconId++);
  return `i${iconIds.get(icon)}`;
};

function sprite(pin, r, dpr, captionStyle) {
  const key = [pin.label, pin.fill, pin.text, pin.ring, r, dpr, iconKey(pin.icon)].join('|');
  let s = sprites.get(key);
  if (s) return s;
  const pad = 8;
  const size = Math.ceil((r + pad) * 2);
  const c = document.createElement('canvas');
  c.width = size * dpr;
  c.height = size * dpr;
  const g = /** @type {CanvasRenderingContext2D} */ (c.getContext('2d'));
  g.scale(dpr, dpr);
  const m = size / 2;
  g.shadowColor = 'rgba(0,0,0,0.35)';
  g.shadowBlur = 6;
  g.shadowOffsetY = 2;
  g.beginPath();
  g.arc(m, m, r, 0, Math.PI * 2);
  g.fillStyle = pin.ring ?? '#fff';
  g.fill();
  g.shadowColor = 'transparent';
  g.beginPath();
  g.arc(m, m, r - 2.5, 0, Math.PI * 2);
  g.fillStyle = pin.fill;
  g.fill();
  g.fillStyle = pin.text;
  if (pin.icon) {
    const k = (r * 1.1) / 24;
    g.translate(m - 12 * k, m - 12 * k);
    g.scale(k, k);
    g.fill(pin.icon, 'evenodd');
  } else if (pin.label) {
    let px = Math.round(r * 0.72);
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    for (; px > 8; px--) {
      g.font = `700 ${px}px ${FONT}`;
      if (g.measureText(pin.label).width <= (r - 5) * 2) break;
    }
    g.fillText(pin.label, m, m + px * 0.05);
  }
  s = { canvas: c, size };
  if (sprites.size > 400) sprites.clear();
  sprites.set(key, s);
  return s;
}

function captionSprite(text, dpr, style) {
  const key = `cap|${text}|${dpr}|${style.bg}|${style.fg}`;
  let s = sprites.get(key);
  if (s) return s;
  const probe = document.createElement('canvas').getContext('2d');
  const font = `600 11px ${FONT}`;
  probe.font = font;
  const w = Math.ceil(probe.measureText(text).width) + 12;
  const h = 18;
  const pad = 4;
  const c = document.createElement('canvas');
  c.width = (w + pad * 2) * dpr;
  c.height = (h + pad * 2) * dpr;
  const g = /** @type {CanvasRenderingContext2D} */ (c.getContext('2d'));
  g.scale(dpr, dpr);
  g.shadowColor = 'rgba(0,0,0,0.25)';
  g.shadowBlur = 3;
  g.shadowOffsetY = 1;
  g.beginPath();
  g.roundRect(pad, pad, w, h, h / 2);
  g.fillStyle = style.bg;
  g.fill();
  g.shadowColor = 'transparent';
  g.font = font;
  g.fillStyle = style.fg;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(text, pad + w / 2, pad + h / 2 + 0.5);
  s = { canvas: c, w: w + pad * 2, h: h + pad * 2, pad };
  sprites.set(key, s);
  return s;
}

/**
 * @param {{id: string, zIndex?: number, pins: (frame: import('./camera.js').Frame) => Pin[],
 *          captions?: (zoom: number) => boolean, scale?: (zoom: number) => number,
 *          captionStyle?: () => {bg: string, fg: string}}} o
 */
export function pinLayer(o) {
  /** @type {{pin: Pin, x: number, y: number, r: number}[]} */
  let drawn = [];
  const mercators = new WeakMap();
  const merc = (pin) => {
    let m = mercators.get(pin);
    if (!m || m.lat !== pin.lat || m.lon !== pin.lon) {
      m = { lat: pin.lat, lon: pin.lon, ...toMercator(pin) };
      mercators.set(pin, m);
    }
    return m;
  };
  return {
    id: o.id,
    zIndex: o.zIndex ?? 50,
    /** @param {CanvasRenderingContext2D} ctx @param {import('./camera.js').Frame} f */
    draw(ctx, f) {
      const dpr = f.pixelRatio;
      const out = [];
      const k = o.scale?.(f.zoom) ?? 1;
      for (const pin of o.pins(f)) {
        const m = merc(pin);
        const q = f.toScreen(m.x, m.y);
        const r = Math.round((pin.radius ?? 18) * k * (pin.selected ? 1.2 : 1));
        if (q.x < -r - 60 || q.y < -r - 30 || q.x > f.width + r + 60 || q.y > f.height + r + 40) continue;
        out.push({ pin, x: q.x, y: q.y, r });
      }
      // Southern pins overlap northern ones, as things nearer the viewer do; the selected one is on top.
      out.sort((p, q) => (p.pin.selected ? 1 : 0) - (q.pin.selected ? 1 : 0) || p.y - q.y);
      const style = o.captionStyle?.() ?? { bg: '#fff', fg: '#222' };
      const showCaptions = o.captions?.(f.zoom) ?? true;
      /** @type {{x0: number, y0: number, x1: number, y1: number}[]} */
      const taken = out.map((d) => ({ x0: d.x - d.r, y0: d.y - d.r, x1: d.x + d.r, y1: d.y + d.r }));
      ctx.save();
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      for (const d of out) {
        const s = sprite(d.pin, d.r, dpr, style);
        ctx.drawImage(s.canvas, Math.round((d.x - s.size / 2) * dpr), Math.round((d.y - s.size / 2) * dpr));
      }
      // Captions only where they collide with no pin and no earlier caption; big lots first.
      if (showCaptions) {
        const order = [...out].sort((p, q) => (q.pin.selected ? 1 : 0) - (p.pin.selected ? 1 : 0) || (q.pin.data?.priority ?? 0) - (p.pin.data?.priority ?? 0));
        for (const d of order) {
          if (!d.pin.caption) continue;
          const s = captionSprite(d.pin.caption, dpr, style);
          const box = { x0: d.x - s.w / 2 + s.pad, y0: d.y + d.r + 1, x1: d.x + s.w / 2 - s.pad, y1: d.y + d.r + s.h - s.pad };
          const clash = taken.some((t) => box.x0 < t.x1 && box.x1 > t.x0 && box.y0 < t.y1 && box.y1 > t.y0);
          if (clash) continue;
          taken.push(box);
          ctx.drawImage(s.canvas, Math.round((d.x - s.w / 2) * dpr), Math.round((d.y + d.r - s.pad + 1) * dpr));
        }
      }
      ctx.restore();
      drawn = out;
    },
    hitTest(x, y) {
      let best = null;
      let bestD = Infinity;
      for (const d of drawn) {
        const dist = Math.hypot(d.x - x, d.y - y);
        // A finger is wider than a pin: accept taps a little outside the circle.
        if (dist <= d.r + 6 && dist < bestD) { best = d.pin; bestD = dist; }
      }
      return best ? (best.data ?? best) : null;
    },
    /** Where each pin was drawn in the last frame. */
    drawn: () => drawn.map((d) => ({ pin: d.pin, x: d.x, y: d.y, r: d.r })),
  };
}
