// The held spot on the map (PRK-9): a ring around it at spot zoom, a marker further out, and a
// dashed walking line from where the phone is to the spot. The phone's position comes from the
// browser and stays in the browser; it is never sent to the server (ACC-11).

import { toMercator, metresPerPixel } from '../map/projection.js';
import { palette } from '../shell/theme.js';

/**
 * @param {{hold: () => any, position: () => {lat: number, lon: number}|null, spotMinZoom: number}} o
 */
export function holdLayer(o) {
  /** @type {{from: {x: number, y: number}, to: {x: number, y: number}}|null} */
  let walk = null;
  /** @type {{x: number, y: number, r: number}|null} */
  let marker = null;

  return {
    id: 'hold',
    zIndex: 45,
    /** @param {CanvasRenderingContext2D} ctx @param {import('../map/camera.js').Frame} f */
    draw(ctx, f) {
      walk = null;
      marker = null;
      const h = o.hold();
      if (!h) return;
      const p = palette();
      const spot = { lat: h.spotCenter.latitude, lon: h.spotCenter.longitude };
      const sm = toMercator(spot);
      const to = f.toScreen(sm.x, sm.y);
      const me = o.position();
      const zoomed = f.zoom >= o.spotMinZoom;
      // A ring a little larger than a bay at spot zoom, so the bar's own colour shows inside it.
      const r = zoomed ? Math.max(12, 4.5 / metresPerPixel(f.zoom, spot.lat)) : 8;
      ctx.save();
      if (me) {
        const mm = toMercator(me);
        const from = f.toScreen(mm.x, mm.y);
        // The line stops at the ring, leaving the spot itself uncovered.
        const len = Math.hypot(to.x - from.x, to.y - from.y);
        const k = len > r ? (len - r) / len : 0;
        const end = { x: from.x + (to.x - from.x) * k, y: from.y + (to.y - from.y) * k };
        ctx.lineCap = 'round';
        ctx.lineJoin = 'round';
        // A light casing under the dashes keeps the line readable over tiles and lots alike.
        ctx.strokeStyle = p.surface;
        ctx.lineWidth = 7;
        ctx.beginPath();
        ctx.moveTo(from.x, from.y);
        ctx.lineTo(end.x, end.y);
        ctx.stroke();
        ctx.strokeStyle = p.selected;
        ctx.lineWidth = 4;
        ctx.setLineDash([1, 9]);
        ctx.stroke();
        ctx.setLineDash([]);
        // You are here.
        ctx.beginPath();
        ctx.arc(from.x, from.y, 7, 0, Math.PI * 2);
        ctx.fillStyle = p.selected;
        ctx.fill();
        ctx.lineWidth = 2.5;
        ctx.strokeStyle = '#fff';
        ctx.stroke();
        walk = { from: { x: from.x, y: from.y }, to: { x: to.x, y: to.y } };
      }
      const asking = h.status === 'asking';
      const colour = asking ? p['spot-taken'] : p['spot-held'];
      if (zoomed) {
        ctx.beginPath();
        ctx.arc(to.x, to.y, r, 0, Math.PI * 2);
        ctx.lineWidth = 5;
        ctx.strokeStyle = p.surface;
        ctx.stroke();
        ctx.lineWidth = 3;
        ctx.strokeStyle = p.text;
        ctx.stroke();
        marker = { x: to.x, y: to.y, r };
      } else {
        ctx.beginPath();
        ctx.arc(to.x, to.y, r, 0, Math.PI * 2);
        ctx.fillStyle = colour;
        ctx.fill();
        ctx.lineWidth = 3;
        ctx.strokeStyle = p.text;
        ctx.stroke();
        marker = { x: to.x, y: to.y, r };
      }
      ctx.restore();
    },
    /** What the last frame showed, in CSS pixels (tests). */
    drawn: () => ({ walk, marker }),
  };
}
