// The person's position on the map (TRL-2): a blue dot with its accuracy circle and, where the
// device reports it, the altitude. It is asked for only when the person taps the button, kept
// in this page only, and never sent to the server: the dot stops with a second tap.

import { toMercator } from '../map/projection.js';
import { toast } from './toast.js';
import { defaultUnits } from '../accounts/units.js';
import { cachedMe } from '../accounts/session.js';

const EARTH_CIRCUMFERENCE = 40075016.686;
const n0 = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

/** "±8 m", "1,234 ft": in the person's units. @param {number} metres */
function height(metres) {
  const u = cachedMe()?.units ?? defaultUnits();
  return u.elevation === 'ft' ? `${n0.format(metres / 0.3048)} ft` : `${n0.format(metres)} m`;
}

/**
 * @param {any} map
 * @param {HTMLButtonElement} button
 * @param {HTMLElement} readout where the altitude and accuracy are written
 */
export function startMyLocation(map, button, readout) {
  let watchId = /** @type {number|null} */ (null);
  /** @type {{lat: number, lon: number, accuracy: number, altitude: number|null, altitudeAccuracy: number|null}|null} */
  let position = null;
  let centred = false;

  map.addLayer({
    id: 'my-location',
    zIndex: 90,
    draw(ctx, frame) {
      if (!position) return;
      const m = toMercator(position);
      const { x, y } = frame.toScreen(m.x, m.y);
      const metresPerPixel = (EARTH_CIRCUMFERENCE * Math.cos((position.lat * Math.PI) / 180)) / frame.scale;
      const r = position.accuracy / metresPerPixel;
      if (r > 9) {
        ctx.beginPath();
        ctx.arc(x, y, r, 0, 2 * Math.PI);
        ctx.fillStyle = 'rgba(26, 115, 232, 0.15)';
        ctx.strokeStyle = 'rgba(26, 115, 232, 0.5)';
        ctx.lineWidth = 1;
        ctx.fill();
        ctx.stroke();
      }
      ctx.beginPath();
      ctx.arc(x, y, 8, 0, 2 * Math.PI);
      ctx.fillStyle = '#1a73e8';
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 3;
      ctx.fill();
      ctx.stroke();
    },
  });

  /** Centres the part of the map no sheet covers on the position (a sheet covers the bottom of a
   * phone's map and the left of a wide screen's). */
  function centre(lat, lon) {
    const m = map.canvas.getBoundingClientRect();
    const padding = { top: 60, right: 70, bottom: 60, left: 20 };
    for (const sheet of document.querySelectorAll('.sheet:not([hidden])')) {
      const r = sheet.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      if (r.width >= m.width * 0.9) padding.bottom = Math.max(padding.bottom, m.bottom - r.top + 30);
      else padding.left = Math.max(padding.left, r.right - m.left + 30);
    }
    const d = 0.0003;
    const zoom = Math.max(map.getView().zoom, 15);
    map.fitBounds({ south: lat - d, north: lat + d, west: lon - d, east: lon + d }, { padding, maxZoom: zoom, animate: 400 });
  }

  function show() {
    if (!position) { readout.hidden = true; return; }
    const parts = [`Your position ±${height(position.accuracy)}`];
    parts.push(position.altitude != null
      ? `altitude ${height(position.altitude)}${position.altitudeAccuracy != null ? ` ±${height(position.altitudeAccuracy)}` : ''}`
      : 'altitude not reported by this device');
    readout.textContent = parts.join(' · ');
    readout.hidden = false;
  }

  function stop() {
    if (watchId !== null) navigator.geolocation.clearWatch(watchId);
    watchId = null;
    position = null;
    centred = false;
    button.setAttribute('aria-pressed', 'false');
    show();
    map.invalidate();
  }

  button.addEventListener('click', () => {
    if (watchId !== null) { stop(); return; }
    if (!('geolocation' in navigator)) { toast('This browser cannot tell where you are.'); return; }
    if (!window.isSecureContext) { toast('Your position needs a secure (https) connection to Waymark.'); return; }
    button.setAttribute('aria-pressed', 'true');
    readout.textContent = 'Finding your position…';
    readout.hidden = false;
    watchId = navigator.geolocation.watchPosition((pos) => {
      const c = pos.coords;
      position = { lat: c.latitude, lon: c.longitude, accuracy: c.accuracy, altitude: c.altitude, altitudeAccuracy: c.altitudeAccuracy };
      if (!centred) { centred = true; centre(c.latitude, c.longitude); }
      show();
      map.invalidate();
    }, (err) => {
      stop();
      toast(err.code === err.PERMISSION_DENIED
        ? 'Waymark may not see where you are. Allow location for this site in the browser’s settings, then try again.'
        : 'Your position could not be found. Move to open sky and try again.');
    }, { enableHighAccuracy: true, maximumAge: 10_000, timeout: 30_000 });
  });

  return { position: () => position, stop };
}
