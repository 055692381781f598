// The map engine's public face. Everything else in the app talks to a map only through this
// interface, so the engine could be swapped for another one without touching the features.

import { Camera, wrapBearing } from './camera.js';
import { attachGestures } from './gestures.js';
import { tileLayer } from './tiles.js';
import { backgroundLayer } from './background.js';
import { toMercator, fromMercator } from './projection.js';

/** @typedef {import('./camera.js').Frame} Frame */
/** @typedef {import('./camera.js').View} View */
/** @typedef {import('./projection.js').LatLon} LatLon */

/**
 * A layer draws itself in CSS pixels (the context is already scaled by the pixel ratio) and
 * may answer hit tests in CSS pixels relative to the map's top-left corner.
 * @typedef {object} Layer
 * @property {string} id
 * @property {number} [zIndex] higher draws later, is hit first
 * @property {(ctx: CanvasRenderingContext2D, frame: Frame) => void} draw
 * @property {(x: number, y: number, frame: Frame) => any} [hitTest]
 * @property {(frame: Frame) => boolean} [covers] true when this frame it paints every pixel
 *   opaquely, so the layers under it need not be drawn (fill rate is what limits a phone)
 */

/**
 * @typedef {object} MapOptions
 * @property {LatLon} center
 * @property {number} [zoom]
 * @property {number} [bearing]
 * @property {number} [minZoom]
 * @property {number} [maxZoom]
 * @property {{urlTemplate: string, maxZoom?: number}} [tiles]
 * @property {() => Record<string, string>} [palette] colours for the background and grid
 * @property {string} [label] accessible name of the map
 */

/**
 * @param {HTMLElement} container
 * @param {MapOptions} options
 */
export function createMap(container, options) {
  const camera = new Camera({
    center: options.center, zoom: options.zoom, bearing: options.bearing,
    minZoom: options.minZoom ?? 0, maxZoom: options.maxZoom ?? 19,
  });
  const canvas = document.createElement('canvas');
  canvas.className = 'map-canvas';
  container.append(canvas);
  container.tabIndex = 0;
  container.setAttribute('role', 'application');
  container.setAttribute('aria-label', options.label ?? 'Map');
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d', { alpha: false }));
  /** @type {Layer[]} */
  let layers = [];
  /** @type {Map<string, Set<Function>>} */
  const listeners = new Map();
  let pixelRatio = 1;
  /** The screen's own ratio, capped; `pixelRatio` is this times the motion step's factor. */
  let fullRatio = 1;
  // A moving map that misses frames is drawn with fewer pixels (¾, then ½ of the screen's) and
  // sharp again once it rests: on a slow phone filling the canvas is what costs the frames.
  const MOTION_FACTORS = [1, 0.75, 0.5];
  let motionStep = 0;
  let moving = false;
  let slowFrames = 0;
  let lastRenderAt = 0;
  let restTimer = 0;
  let scheduled = 0;
  let animation = 0;
  let lastFrame = /** @type {Frame|null} */ (null);
  const stats = { frames: 0, drawMs: 0, lastDrawMs: 0 };
  /** @type {{south: number, west: number, north: number, east: number}|null} */
  let maxBounds = null;

  const palette = options.palette ?? (() => ({}));
  /** @type {ReturnType<typeof tileLayer>|null} */
  let tiles = null;
  addLayer(backgroundLayer(palette));
  if (options.tiles?.urlTemplate) setTiles(options.tiles);

  /** @param {{urlTemplate: string, maxZoom?: number}|null} source */
  function setTiles(source) {
    layers = layers.filter((l) => l.id !== 'tiles');
    tiles = source?.urlTemplate ? tileLayer({ ...source, dark: () => palette().dark === 'true' }, invalidate) : null;
    if (tiles) addLayer(tiles);
    invalidate();
  }

  function emit(type, detail) {
    for (const fn of listeners.get(type) ?? []) fn(detail);
  }

  function resize() {
    const r = container.getBoundingClientRect();
    // Above 2× the extra pixels cost more fill time than they add sharpness on a moving map.
    fullRatio = Math.min(2, window.devicePixelRatio || 1);
    camera.width = Math.max(1, r.width);
    camera.height = Math.max(1, r.height);
    canvas.style.width = `${camera.width}px`;
    canvas.style.height = `${camera.height}px`;
    sizeCanvas();
    camera.clamp();
    render();
  }

  /** The backing store for the current ratio; the CSS size stays. */
  function sizeCanvas() {
    pixelRatio = fullRatio * MOTION_FACTORS[motionStep];
    const w = Math.round(camera.width * pixelRatio), h = Math.round(camera.height * pixelRatio);
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  }

  /** While moving, two late frames in a row (a 60 Hz frame is 16.7 ms) step the ratio down. */
  function adaptToMotion(now) {
    const interval = now - lastRenderAt;
    lastRenderAt = now;
    if (!moving || interval > 250) { slowFrames = 0; return; }
    slowFrames = interval > 24 ? slowFrames + 1 : 0;
    if (slowFrames >= 2 && motionStep < MOTION_FACTORS.length - 1) {
      motionStep++;
      slowFrames = 0;
      sizeCanvas();
    }
  }

  function rest() {
    moving = false;
    restTimer = 0;
    if (!motionStep) return;
    motionStep = 0;
    sizeCanvas();
    invalidate();
  }

  function render() {
    scheduled = 0;
    const t0 = performance.now();
    adaptToMotion(t0);
    const frame = camera.frame(pixelRatio, t0);
    lastFrame = frame;
    let first = 0;
    for (let i = layers.length - 1; i > 0; i--) {
      if (layers[i].covers?.(frame)) { first = i; break; }
    }
    for (let i = first; i < layers.length; i++) {
      ctx.setTransform(pixelRatio, 0, 0, pixelRatio, 0, 0);
      ctx.globalAlpha = 1;
      layers[i].draw(ctx, frame);
    }
    stats.frames++;
    stats.lastDrawMs = performance.now() - t0;
    stats.drawMs += stats.lastDrawMs;
    emit('render', frame);
  }

  function invalidate() {
    if (!scheduled) scheduled = requestAnimationFrame(render);
  }

  function changed() {
    moving = true;
    clearTimeout(restTimer);
    restTimer = setTimeout(rest, 180);
    invalidate();
    emit('move', camera.getView());
  }

  function ended() {
    emit('moveend', camera.getView());
  }

  function stop() {
    if (animation) { cancelAnimationFrame(animation); animation = 0; }
  }

  /**
   * Animates to a view; `mercator` is an internal shortcut for a centre already projected.
   * @param {Partial<View> & {mercator?: {x: number, y: number}}} target
   * @param {number} [ms]
   */
  function easeTo(target, ms = 300) {
    stop();
    const from = { x: camera.mx, y: camera.my, zoom: camera.zoom, bearing: camera.bearing };
    const m = target.mercator ?? (target.center ? toMercator(target.center) : { x: from.x, y: from.y });
    const toZoom = target.zoom ?? from.zoom;
    const toBearing = target.bearing ?? from.bearing;
    const dBearing = wrapBearing(toBearing - from.bearing);
    if (ms <= 0 || matchMedia('(prefers-reduced-motion: reduce)').matches) {
      camera.mx = m.x; camera.my = m.y;
      camera.setView({ zoom: toZoom, bearing: from.bearing + dBearing });
      changed(); ended();
      return;
    }
    const start = performance.now();
    const step = (time) => {
      const k = Math.min(1, (time - start) / ms);
      const e = 1 - (1 - k) ** 3;
      camera.mx = from.x + (m.x - from.x) * e;
      camera.my = from.y + (m.y - from.y) * e;
      camera.setView({ zoom: from.zoom + (toZoom - from.zoom) * e, bearing: from.bearing + dBearing * e });
      changed();
      if (k < 1) animation = requestAnimationFrame(step);
      else { animation = 0; ended(); }
    };
    animation = requestAnimationFrame(step);
  }

  /** @param {Layer} layer */
  function addLayer(layer) {
    layers = [...layers.filter((l) => l.id !== layer.id), layer].sort((p, q) => (p.zIndex ?? 0) - (q.zIndex ?? 0));
    invalidate();
    return layer;
  }

  function hitTest(x, y) {
    const frame = camera.frame(pixelRatio);
    for (let i = layers.length - 1; i >= 0; i--) {
      const l = layers[i];
      const hit = l.hitTest?.(x, y, frame);
      if (hit) return { layer: l.id, feature: hit };
    }
    return null;
  }

  const gestures = attachGestures(container, {
    camera, changed, ended, stop, easeTo,
    tap(x, y) { emit('tap', { x, y, hit: hitTest(x, y) }); },
    longPress(x, y) { emit('longpress', { x, y, hit: hitTest(x, y) }); },
  });

  const observer = new ResizeObserver(resize);
  observer.observe(container);
  resize();

  const api = {
    canvas,
    /** @returns {View} */
    getView: () => camera.getView(),
    /** @param {Partial<View>} view @param {{animate?: number}} [opts] */
    setView(view, opts = {}) {
      if (opts.animate) { easeTo(view, opts.animate); return; }
      stop();
      camera.setView(view);
      changed();
      ended();
    },
    setBearing(bearing, opts = { animate: 300 }) { api.setView({ bearing }, opts); },
    zoomBy(delta, ms = 250) { gestures.zoomAround(delta, camera.width / 2, camera.height / 2, ms); },
    /** @param {{south: number, west: number, north: number, east: number}} b */
    fitBounds(b, { padding = { top: 40, right: 40, bottom: 40, left: 40 }, maxZoom = camera.maxZoom, animate = 0 } = {}) {
      const nw = toMercator({ lat: b.north, lon: b.west });
      const se = toMercator({ lat: b.south, lon: b.east });
      const zoom = Math.min(maxZoom, camera.fitZoom({ minX: nw.x, minY: nw.y, maxX: se.x, maxY: se.y }, padding));
      // Centre the box within the padded area, not the whole screen.
      const offX = (padding.left - padding.right) / 2;
      const offY = (padding.top - padding.bottom) / 2;
      const s = 256 * 2 ** zoom;
      const center = fromMercator({ x: (nw.x + se.x) / 2 - offX / s, y: (nw.y + se.y) / 2 - offY / s });
      api.setView({ center, zoom, bearing: 0 }, { animate });
    },
    /** @param {{south: number, west: number, north: number, east: number}|null} b */
    setMaxBounds(b) { maxBounds = b; camera.setMaxBounds(b); changed(); },
    /** The bounds last given to setMaxBounds (an area that leaves them restores them). */
    getMaxBounds: () => maxBounds,
    on(type, fn) {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type)?.add(fn);
      return () => listeners.get(type)?.delete(fn);
    },
    addLayer,
    setTiles,
    removeLayer(id) { layers = layers.filter((l) => l.id !== id); invalidate(); },
    invalidate,
    /** Redraws now, for callers that must read the result in the same task (tests, benchmarks). */
    renderNow: render,
    /** @param {LatLon} p */
    project(p) { const m = toMercator(p); return camera.mercatorToScreen(m.x, m.y); },
    unproject(x, y) { const m = camera.screenToMercator(x, y); return fromMercator(m); },
    hitTest,
    size: () => ({ width: camera.width, height: camera.height }),
    frame: () => lastFrame,
    stats: () => ({ ...stats, pixelRatio, tiles: tiles?.stats() ?? null }),
    /** Whether the last frame showed any base-map tile (overlays then keep it visible). */
    tilesShown: () => (tiles?.stats().drawn ?? 0) > 0,
    themeChanged() { tiles?.resetTheme(); invalidate(); },
    get minZoom() { return camera.minZoom; },
    get maxZoom() { return camera.maxZoom; },
    destroy() { observer.disconnect(); gestures.detach(); stop(); clearTimeout(restTimer); canvas.remove(); },
  };
  return api;
}

/** @typedef {ReturnType<typeof createMap>} WaymarkMap */
