// The view (centre, zoom, bearing) and the affine transform between mercator units and CSS
// pixels that follows from it. Bearing is the compass direction at the top of the screen,
// degrees clockwise from north, so the map itself turns the other way.

import { toMercator, fromMercator, worldSize } from './projection.js';

/** @typedef {import('./projection.js').LatLon} LatLon */
/** @typedef {{center: LatLon, zoom: number, bearing: number}} View */
/** @typedef {{minX: number, minY: number, maxX: number, maxY: number}} Box */

/**
 * What layers need to draw one frame. Screen x = cx + a·dx + c·dy, y = cy − c·dx + a·dy, with
 * dx, dy the offset from the centre in mercator units.
 * @typedef {object} Frame
 * @property {number} width CSS pixels
 * @property {number} height
 * @property {number} pixelRatio
 * @property {number} zoom
 * @property {number} bearing degrees
 * @property {number} scale CSS pixels per mercator unit
 * @property {number} a
 * @property {number} c
 * @property {number} mx centre, mercator
 * @property {number} my
 * @property {Box} bounds mercator box around the (rotated) viewport
 * @property {(mx: number, my: number) => {x: number, y: number}} toScreen
 * @property {number} time
 */

export function wrapBearing(b) {
  const r = ((b % 360) + 360) % 360;
  return r > 180 ? r - 360 : r;
}

export class Camera {
  /** @param {{center: LatLon, zoom?: number, bearing?: number, minZoom?: number, maxZoom?: number}} o */
  constructor(o) {
    this.minZoom = o.minZoom ?? 0;
    this.maxZoom = o.maxZoom ?? 19;
    /** @type {Box|null} */
    this.maxBounds = null;
    const m = toMercator(o.center);
    this.mx = m.x;
    this.my = m.y;
    this.zoom = o.zoom ?? 16;
    this.bearing = wrapBearing(o.bearing ?? 0);
    this.width = 1;
    this.height = 1;
    this.clamp();
  }

  /** @param {{south: number, west: number, north: number, east: number}|null} b */
  setMaxBounds(b) {
    if (!b) { this.maxBounds = null; return; }
    const nw = toMercator({ lat: b.north, lon: b.west });
    const se = toMercator({ lat: b.south, lon: b.east });
    this.maxBounds = { minX: nw.x, minY: nw.y, maxX: se.x, maxY: se.y };
    this.clamp();
  }

  clamp() {
    this.zoom = Math.max(this.minZoom, Math.min(this.maxZoom, this.zoom));
    const b = this.maxBounds;
    if (b) {
      this.mx = Math.max(b.minX, Math.min(b.maxX, this.mx));
      this.my = Math.max(b.minY, Math.min(b.maxY, this.my));
    } else {
      this.mx = ((this.mx % 1) + 1) % 1;
      this.my = Math.max(0, Math.min(1, this.my));
    }
  }

  /** @returns {View} */
  getView() {
    return { center: fromMercator({ x: this.mx, y: this.my }), zoom: this.zoom, bearing: this.bearing };
  }

  /** @param {Partial<View>} v */
  setView(v) {
    if (v.center) {
      const m = toMercator(v.center);
      this.mx = m.x;
      this.my = m.y;
    }
    if (v.zoom !== undefined) this.zoom = v.zoom;
    if (v.bearing !== undefined) this.bearing = wrapBearing(v.bearing);
    this.clamp();
  }

  /** @returns {Frame} */
  frame(pixelRatio = 1, time = 0) {
    const scale = worldSize(this.zoom);
    const rad = (this.bearing * Math.PI) / 180;
    const a = scale * Math.cos(rad);
    const c = scale * Math.sin(rad);
    const cx = this.width / 2;
    const cy = this.height / 2;
    const mx = this.mx;
    const my = this.my;
    const toScreen = (px, py) => {
      const dx = px - mx;
      const dy = py - my;
      return { x: cx + a * dx + c * dy, y: cy - c * dx + a * dy };
    };
    // The rotated viewport's corners, back in mercator, bound what any layer has to draw.
    const corners = [[0, 0], [this.width, 0], [0, this.height], [this.width, this.height]]
      .map(([x, y]) => this.screenToMercator(x, y));
    const xs = corners.map((p) => p.x);
    const ys = corners.map((p) => p.y);
    return {
      width: this.width, height: this.height, pixelRatio, zoom: this.zoom, bearing: this.bearing,
      scale, a, c, mx, my, toScreen, time,
      bounds: { minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) },
    };
  }

  screenToMercator(x, y) {
    const scale = worldSize(this.zoom);
    const rad = (this.bearing * Math.PI) / 180;
    const a = scale * Math.cos(rad);
    const c = scale * Math.sin(rad);
    const ux = x - this.width / 2;
    const uy = y - this.height / 2;
    const s2 = scale * scale;
    return { x: this.mx + (a * ux - c * uy) / s2, y: this.my + (c * ux + a * uy) / s2 };
  }

  mercatorToScreen(px, py) {
    const scale = worldSize(this.zoom);
    const rad = (this.bearing * Math.PI) / 180;
    const a = scale * Math.cos(rad);
    const c = scale * Math.sin(rad);
    const dx = px - this.mx;
    const dy = py - this.my;
    return { x: this.width / 2 + a * dx + c * dy, y: this.height / 2 - c * dx + a * dy };
  }

  /** Moves the centre so the content follows a drag by (dx, dy) CSS pixels. */
  panBy(dx, dy) {
    const p = this.screenToMercator(this.width / 2 - dx, this.height / 2 - dy);
    this.mx = p.x;
    this.my = p.y;
    this.clamp();
  }

  /** Keeps the mercator point `m` under screen point (x, y) after zoom/bearing changed. */
  anchor(m, x, y) {
    const now = this.screenToMercator(x, y);
    this.mx += m.x - now.x;
    this.my += m.y - now.y;
    this.clamp();
  }

  /** Zoom at which a mercator box fits inside the viewport minus padding, north up. */
  fitZoom(box, padding) {
    const w = Math.max(1, this.width - padding.left - padding.right);
    const h = Math.max(1, this.height - padding.top - padding.bottom);
    const zx = Math.log2(w / ((box.maxX - box.minX) * 256));
    const zy = Math.log2(h / ((box.maxY - box.minY) * 256));
    return Math.min(zx, zy);
  }
}
