// Text labels at points (room numbers, building codes) that stay upright and readable at any
// bearing: drawn with a halo, larger-first, and a label that would overlap one already drawn
// this frame is skipped rather than drawn on top of it.

import { toMercator } from './projection.js';

/**
 * @typedef {object} Label
 * @property {number} lat
 * @property {number} lon
 * @property {string} text
 * @property {number} [size] CSS pixels
 * @property {boolean} [bold]
 */

const FONT = '-apple-system, system-ui, "Segoe UI", Roboto, sans-serif';

/**
 * @param {{id: string, zIndex?: number, labels: (frame: any) => Label[], minZoom?: number,
 *          colours: () => {text: string, halo: string}}} o
 */
export function labelLayer(o) {
  const mercators = new WeakMap();
  const merc = (l) => {
    let m = mercators.get(l);
    if (!m) { m = toMercator(l); mercators.set(l, m); }
    return m;
  };
  return {
    id: o.id,
    zIndex: o.zIndex ?? 30,
    /** @param {CanvasRenderingContext2D} ctx @param {any} f */
    draw(ctx, f) {
      if (f.zoom < (o.minZoom ?? 0)) return;
      const { text, halo } = o.colours();
      /** @type {{x0: number, y0: number, x1: number, y1: number}[]} */
      const taken = [];
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.lineJoin = 'round';
      for (const l of o.labels(f)) {
        const m = merc(l);
        const p = f.toScreen(m.x, m.y);
        if (p.x < -50 || p.y < -20 || p.x > f.width + 50 || p.y > f.height + 20) continue;
        const size = l.size ?? 12;
        ctx.font = `${l.bold ? 600 : 500} ${size}px ${FONT}`;
        const w = ctx.measureText(l.text).width;
        const box = { x0: p.x - w / 2 - 2, y0: p.y - size / 2 - 2, x1: p.x + w / 2 + 2, y1: p.y + size / 2 + 2 };
        if (taken.some((b) => b.x0 < box.x1 && b.x1 > box.x0 && b.y0 < box.y1 && b.y1 > box.y0)) continue;
        taken.push(box);
        ctx.lineWidth = 3;
        ctx.strokeStyle = halo;
        ctx.strokeText(l.text, p.x, p.y);
        ctx.fillStyle = text;
        ctx.fillText(l.text, p.x, p.y);
      }
    },
  };
}
