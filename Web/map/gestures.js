// Touch, mouse, wheel and keyboard input for the map, all through pointer events so a phone,
// a trackpad and a mouse behave alike. A twist only rotates after a small threshold, as in
// native map apps, so a plain pinch does not tilt the map by accident.

const TAP_SLOP = 8;
const TAP_MS = 600;
const DOUBLE_TAP_MS = 300;
const ROTATE_THRESHOLD = 12;

/**
 * @typedef {object} GestureTarget
 * @property {import('./camera.js').Camera} camera
 * @property {() => void} changed  the view moved (redraw, emit 'move')
 * @property {() => void} ended    a gesture finished (emit 'moveend')
 * @property {() => void} stop     cancel running animations
 * @property {(view: object, ms?: number) => void} easeTo
 * @property {(x: number, y: number, e: PointerEvent) => void} tap
 * @property {(x: number, y: number, e: PointerEvent) => void} [longPress] held still longer than a tap
 */

/** @param {HTMLElement} el @param {GestureTarget} t */
export function attachGestures(el, t) {
  const cam = t.camera;
  /** @type {Map<number, {x: number, y: number, x0: number, y0: number, t0: number, type: string}>} */
  const pointers = new Map();
  let mode = /** @type {'pan'|'pinch'|'rotate'|null} */ (null);
  let moved = false;
  let last = { x: 0, y: 0 };
  /** @type {{t: number, x: number, y: number}[]} */
  let samples = [];
  /** @type {any} */
  let pinch = null;
  let lastTap = { t: 0, x: 0, y: 0 };
  let twoFingerTap = false;
  let inertia = 0;

  const local = (e) => {
    const r = el.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };

  function startPinch() {
    const [p, q] = [...pointers.values()];
    const mid = { x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 };
    pinch = {
      d0: Math.max(1, Math.hypot(q.x - p.x, q.y - p.y)),
      a0: Math.atan2(q.y - p.y, q.x - p.x),
      z0: cam.zoom,
      b0: cam.bearing,
      m: cam.screenToMercator(mid.x, mid.y),
      rotating: false,
    };
    mode = 'pinch';
  }

  function onDown(e) {
    if (e.pointerType === 'mouse' && e.button !== 0 && e.button !== 2) return;
    el.focus({ preventScroll: true });
    t.stop();
    cancelAnimationFrame(inertia);
    el.setPointerCapture?.(e.pointerId);
    const p = local(e);
    pointers.set(e.pointerId, { ...p, x0: p.x, y0: p.y, t0: performance.now(), type: e.pointerType });
    if (pointers.size === 1) {
      const rotate = e.pointerType === 'mouse' && (e.button === 2 || e.ctrlKey || e.metaKey);
      mode = rotate ? 'rotate' : 'pan';
      moved = false;
      twoFingerTap = false;
      last = p;
      samples = [{ t: performance.now(), ...p }];
      if (rotate) pinch = { b0: cam.bearing, x0: p.x };
    } else if (pointers.size === 2) {
      twoFingerTap = !moved;
      startPinch();
    }
  }

  function onMove(e) {
    const ptr = pointers.get(e.pointerId);
    if (!ptr) return;
    const p = local(e);
    ptr.x = p.x;
    ptr.y = p.y;
    if (Math.hypot(p.x - ptr.x0, p.y - ptr.y0) > TAP_SLOP) { moved = true; twoFingerTap = false; }
    if (mode === 'pan' && pointers.size === 1) {
      if (!moved) return;
      cam.panBy(p.x - last.x, p.y - last.y);
      last = p;
      const now = performance.now();
      samples.push({ t: now, ...p });
      while (samples.length > 2 && now - samples[0].t > 100) samples.shift();
      t.changed();
    } else if (mode === 'rotate') {
      cam.setView({ bearing: pinch.b0 - (p.x - pinch.x0) * 0.4 });
      t.changed();
    } else if (mode === 'pinch' && pointers.size >= 2) {
      const [a, b] = [...pointers.values()];
      const d = Math.max(1, Math.hypot(b.x - a.x, b.y - a.y));
      const ang = Math.atan2(b.y - a.y, b.x - a.x);
      const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      let twist = ((ang - pinch.a0) * 180) / Math.PI;
      twist = ((twist + 540) % 360) - 180;
      if (!pinch.rotating && Math.abs(twist) > ROTATE_THRESHOLD) {
        pinch.rotating = true;
        pinch.a0 = ang;
        pinch.b0 = cam.bearing;
        twist = 0;
      }
      const view = { zoom: pinch.z0 + Math.log2(d / pinch.d0) };
      if (pinch.rotating) view.bearing = pinch.b0 - twist;
      cam.setView(view);
      cam.anchor(pinch.m, mid.x, mid.y);
      t.changed();
    }
  }

  function onUp(e) {
    const ptr = pointers.get(e.pointerId);
    if (!ptr) return;
    pointers.delete(e.pointerId);
    const now = performance.now();
    if (mode === 'pinch') {
      if (pointers.size === 1) {
        if (twoFingerTap && now - ptr.t0 < TAP_MS) {
          const r = cam.zoom - 1;
          t.easeTo({ zoom: r }, 250);
          twoFingerTap = false;
        }
        // The finger left behind carries on panning without a jump.
        const rest = [...pointers.values()][0];
        mode = 'pan';
        moved = true;
        last = { x: rest.x, y: rest.y };
        samples = [];
      }
      return;
    }
    if (pointers.size > 0) return;
    const wasMode = mode;
    mode = null;
    if (!moved && e.type === 'pointerup' && now - ptr.t0 < TAP_MS && wasMode === 'pan') {
      const p = { x: ptr.x, y: ptr.y };
      if (now - lastTap.t < DOUBLE_TAP_MS && Math.hypot(p.x - lastTap.x, p.y - lastTap.y) < 30) {
        lastTap = { t: 0, x: 0, y: 0 };
        zoomAround(1, p.x, p.y, 250);
        return;
      }
      lastTap = { t: now, ...p };
      t.tap(p.x, p.y, e);
      return;
    }
    // Held still for longer than a tap: a long press, told when the finger lifts.
    if (!moved && e.type === 'pointerup' && wasMode === 'pan' && t.longPress) {
      t.longPress(ptr.x, ptr.y, e);
      t.ended();
      return;
    }
    if (wasMode === 'pan' && moved) flick();
    else t.ended();
  }

  function flick() {
    const s = samples;
    if (s.length < 2) { t.ended(); return; }
    const dt = s[s.length - 1].t - s[0].t;
    if (dt <= 0 || performance.now() - s[s.length - 1].t > 60) { t.ended(); return; }
    let vx = (s[s.length - 1].x - s[0].x) / dt;
    let vy = (s[s.length - 1].y - s[0].y) / dt;
    const speed = Math.hypot(vx, vy);
    if (speed < 0.3) { t.ended(); return; }
    const max = 4;
    if (speed > max) { vx *= max / speed; vy *= max / speed; }
    let prev = performance.now();
    const step = (time) => {
      const dt2 = Math.min(40, time - prev);
      prev = time;
      const decay = Math.exp(-dt2 / 325);
      vx *= decay;
      vy *= decay;
      cam.panBy(vx * dt2, vy * dt2);
      t.changed();
      if (Math.hypot(vx, vy) > 0.02) inertia = requestAnimationFrame(step);
      else t.ended();
    };
    inertia = requestAnimationFrame(step);
  }

  function zoomAround(delta, x, y, ms) {
    const m = cam.screenToMercator(x, y);
    const from = cam.zoom;
    const to = Math.max(cam.minZoom, Math.min(cam.maxZoom, from + delta));
    const start = performance.now();
    cancelAnimationFrame(inertia);
    const step = (time) => {
      const k = Math.min(1, (time - start) / ms);
      const e2 = 1 - (1 - k) ** 3;
      cam.setView({ zoom: from + (to - from) * e2 });
      cam.anchor(m, x, y);
      t.changed();
      if (k < 1) inertia = requestAnimationFrame(step);
      else t.ended();
    };
    inertia = requestAnimationFrame(step);
  }

  let wheelEnd = 0;
  function onWheel(e) {
    e.preventDefault();
    t.stop();
    const p = local(e);
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
    const dz = (-e.deltaY * unit) * (e.ctrlKey ? 0.01 : 0.003);
    const m = cam.screenToMercator(p.x, p.y);
    cam.setView({ zoom: cam.zoom + Math.max(-1, Math.min(1, dz)) });
    cam.anchor(m, p.x, p.y);
    t.changed();
    clearTimeout(wheelEnd);
    wheelEnd = setTimeout(() => t.ended(), 150);
  }

  function onKey(e) {
    if (e.altKey || e.metaKey || e.ctrlKey) return;
    const step = 100;
    const k = e.key;
    if (k === 'ArrowLeft' && e.shiftKey) t.easeTo({ bearing: cam.bearing - 15 }, 200);
    else if (k === 'ArrowRight' && e.shiftKey) t.easeTo({ bearing: cam.bearing + 15 }, 200);
    else if (k === 'ArrowLeft') panAnimated(step, 0);
    else if (k === 'ArrowRight') panAnimated(-step, 0);
    else if (k === 'ArrowUp') panAnimated(0, step);
    else if (k === 'ArrowDown') panAnimated(0, -step);
    else if (k === '+' || k === '=') zoomAround(1, cam.width / 2, cam.height / 2, 200);
    else if (k === '-' || k === '_') zoomAround(-1, cam.width / 2, cam.height / 2, 200);
    else return;
    e.preventDefault();
  }

  function panAnimated(dx, dy) {
    const target = cam.screenToMercator(cam.width / 2 - dx, cam.height / 2 - dy);
    t.easeTo({ mercator: target }, 180);
  }

  const prevent = (e) => e.preventDefault();
  // A tap may open a sheet or a dialog under the finger; without this, the browser's
  // compatibility click that follows a touch would land on whatever just appeared there.
  const noGhostClick = (e) => { if (e.cancelable) e.preventDefault(); };
  el.addEventListener('touchend', noGhostClick, { passive: false });
  el.addEventListener('pointerdown', onDown);
  el.addEventListener('pointermove', onMove);
  el.addEventListener('pointerup', onUp);
  el.addEventListener('pointercancel', onUp);
  el.addEventListener('wheel', onWheel, { passive: false });
  el.addEventListener('keydown', onKey);
  el.addEventListener('contextmenu', prevent);
  // iOS Safari zooms the page on its own gesture events unless told not to.
  el.addEventListener('gesturestart', prevent);
  el.addEventListener('dblclick', prevent);

  return {
    zoomAround,
    detach() {
      el.removeEventListener('touchend', noGhostClick);
      el.removeEventListener('pointerdown', onDown);
      el.removeEventListener('pointermove', onMove);
      el.removeEventListener('pointerup', onUp);
      el.removeEventListener('pointercancel', onUp);
      el.removeEventListener('wheel', onWheel);
      el.removeEventListener('keydown', onKey);
      el.removeEventListener('contextmenu', prevent);
      el.removeEventListener('gesturestart', prevent);
      el.removeEventListener('dblclick', prevent);
    },
  };
}
