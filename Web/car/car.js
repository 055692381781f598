// The parked-car button (seed Feature 4, PRK-11): save where you are, then locate, update or
// forget it; update and forget ask first. If location access is off, say how to turn it on.

import { pinLayer } from '../map/pins.js';
import { palette } from '../shell/theme.js';
import { choose, confirm, inform } from '../shell/dialog.js';
import { toast } from '../shell/toast.js';
import { loadCar, saveCar, forgetCar } from './car-store.js';
import { age } from '../parking/format.js';

// A car seen from behind, drawn on a 24×24 grid; the windscreen and lights are holes.
const CAR_ICON = 'M5 11.2 6.9 6.6C7.2 5.9 7.9 5.4 8.7 5.4h6.6c.8 0 1.5.5 1.8 1.2l1.9 4.6c.9.3 1.5 1.1 1.5 2.1v4.3c0 .6-.4 1-1 1h-.9v1.3c0 .6-.4 1-1 1h-1.2c-.6 0-1-.4-1-1v-1.3H8.6v1.3c0 .6-.4 1-1 1H6.4c-.6 0-1-.4-1-1v-1.3h-.9c-.6 0-1-.4-1-1v-4.3c0-1 .6-1.8 1.5-2.1Zm2.2-.1h9.6l-1.4-3.5c-.1-.3-.4-.5-.7-.5H9.3c-.3 0-.6.2-.7.5Zm-.4 2.1a1.2 1.2 0 1 0 0 2.4 1.2 1.2 0 0 0 0-2.4Zm10.4 0a1.2 1.2 0 1 0 0 2.4 1.2 1.2 0 0 0 0-2.4Z';

const HOW_TO_ALLOW = 'Waymark needs your location to remember where you parked. It stays on this phone and is never sent to our server.\n\n'
  + 'To allow it: on iPhone, open Settings › Privacy & Security › Location Services and allow your browser, then allow this site when asked. '
  + 'On Android, tap the lock icon next to the address and allow Location.';

/** @param {{map: import('../map/index.js').WaymarkMap}} o */
export function startCar(o) {
  const { map } = o;
  const button = /** @type {HTMLElement} */ (document.getElementById('btn-car'));
  let car = loadCar();
  const icon = new Path2D(CAR_ICON);
  let pins = [];

  function rebuild() {
    const p = palette();
    pins = car ? [{ id: 'car', lat: car.lat, lon: car.lon, icon, fill: p.car, text: p['on-car'], radius: 17, data: { car: true } }] : [];
    button.dataset.saved = String(!!car);
    button.title = car ? 'Show, update or forget your parked car' : 'Save where you parked';
    map.invalidate();
  }

  map.addLayer(pinLayer({ id: 'car', zIndex: 60, pins: () => pins, captions: () => false }));
  rebuild();

  /** @returns {Promise<GeolocationPosition|null>} */
  async function position() {
    if (!('geolocation' in navigator) || !window.isSecureContext) {
      await inform({ name: 'location-unavailable', title: 'Location isn’t available', message: 'This browser cannot share your location with Waymark here. Open Waymark over https or in a browser with location support.' });
      return null;
    }
    try {
      const perm = await navigator.permissions?.query({ name: 'geolocation' });
      if (perm?.state === 'denied') {
        await inform({ name: 'location-denied', title: 'Location access is off', message: HOW_TO_ALLOW });
        return null;
      }
    } catch { /* the Permissions API is optional; the request below tells us anyway */ }
    return new Promise((resolve) => {
      navigator.geolocation.getCurrentPosition(resolve, async (err) => {
        if (err.code === err.PERMISSION_DENIED) {
          await inform({ name: 'location-denied', title: 'Location access is off', message: HOW_TO_ALLOW });
        } else {
          await inform({ name: 'location-failed', title: 'Couldn’t find your location', message: 'Your phone did not report a position in time. Move somewhere with a clearer view of the sky and try again.' });
        }
        resolve(null);
      }, { enableHighAccuracy: true, timeout: 15_000, maximumAge: 0 });
    });
  }

  async function saveHere() {
    const pos = await position();
    if (!pos) return false;
    car = { lat: pos.coords.latitude, lon: pos.coords.longitude, accuracy: pos.coords.accuracy ?? null, savedAt: new Date().toISOString() };
    saveCar(car);
    rebuild();
    locate();
    toast('Parked car saved on this device');
    return true;
  }

  /** Saves a place the app already knows, such as the spot the user just parked on (PRK-10). */
  function saveAt(/** @type {{lat: number, lon: number, spot?: string}} */ place) {
    car = { lat: place.lat, lon: place.lon, accuracy: null, savedAt: new Date().toISOString(), ...(place.spot ? { spot: place.spot } : {}) };
    saveCar(car);
    rebuild();
    locate();
    toast('Parked car saved on this device');
  }

  function locate() {
    if (!car) return;
    map.setView({ center: { lat: car.lat, lon: car.lon }, zoom: Math.max(map.getView().zoom, 17.5) }, { animate: 450 });
  }

  async function menu() {
    if (!car) {
      const ok = await confirm({
        name: 'car-save', title: 'Save your parked car?',
        message: 'Waymark will save your current location on this device only, so you can find your car later.',
        confirm: 'Save location',
      });
      if (ok) await saveHere();
      return;
    }
    const choice = await choose({
      name: 'car-menu', title: 'Your parked car',
      message: car.spot ? `${car.spot}, saved ${age(new Date(car.savedAt))}.` : `Saved ${age(new Date(car.savedAt))}.`,
      actions: [
        { id: 'locate', label: 'Show on map', kind: 'primary' },
        { id: 'update', label: 'Update to my location' },
        { id: 'forget', label: 'Forget', kind: 'danger' },
        { id: 'cancel', label: 'Cancel' },
      ],
    });
    if (choice === 'locate') locate();
    else if (choice === 'update') {
      const ok = await confirm({ name: 'car-update', title: 'Update parked car?', message: 'Replace the saved location with where you are now.', confirm: 'Update' });
      if (ok) await saveHere();
    } else if (choice === 'forget') {
      const ok = await confirm({ name: 'car-forget', title: 'Forget parked car?', message: 'The saved location will be deleted from this device.', confirm: 'Forget', danger: true });
      if (ok) {
        car = null;
        forgetCar();
        rebuild();
        toast('Parked car forgotten');
      }
    }
  }

  button.addEventListener('click', menu);
  map.on('tap', ({ hit }) => { if (hit?.layer === 'car') menu(); });
  addEventListener('storage', (e) => { if (e.key === null || e.key?.startsWith('waymark.car')) { car = loadCar(); rebuild(); } });

  return {
    get car() { return car ? { ...car } : null; },
    menu,
    locate,
    saveAt,
    refresh: rebuild,
  };
}
