// Waymark web app entry: the shell (map, toolbar, theme, offline support) and its modules.
// Parking is the first module; Wayfinding, Trails and Planner will register beside it. Accounts
// belong to the shell: one identity for every module.

import { createMap } from './map/index.js';
import { palette, onThemeChange } from './shell/theme.js';
import { register, list, renderSwitcher } from './shell/modules.js';
import { OfflineError, getJSON } from './shell/api.js';
import { startParking } from './parking/index.js';
import { startCar } from './car/car.js';
import { loadSnapshot } from './parking/snapshot-cache.js';
import { startAccounts } from './accounts/index.js';

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** The map opens where it last was (the cached site), so the first frame is never empty. */
function initialView() {
  const site = loadSnapshot()?.site;
  if (site?.center) return { center: { lat: site.center.latitude, lon: site.center.longitude }, zoom: 15.5 };
  return { center: { lat: 20, lon: 0 }, zoom: 2 };
}

function wireToolbar(map) {
  const compass = $('btn-compass');
  const needle = /** @type {HTMLElement} */ (compass.querySelector('svg'));
  const showBearing = () => {
    const b = map.getView().bearing;
    needle.style.transform = `rotate(${-b}deg)`;
    compass.dataset.bearing = b.toFixed(1);
  };
  map.on('move', showBearing);
  showBearing();
  compass.addEventListener('click', () => map.setBearing(0, { animate: 350 }));
  $('btn-zoom-in').addEventListener('click', () => map.zoomBy(1));
  $('btn-zoom-out').addEventListener('click', () => map.zoomBy(-1));
}

/** Zoom buttons are for mice; touch screens pinch. Media queries miss some mice, so also watch. */
function watchForMouse() {
  const seen = (e) => {
    if (e.type === 'wheel' || /** @type {PointerEvent} */ (e).pointerType === 'mouse') {
      document.documentElement.classList.add('has-mouse');
      removeEventListener('pointerdown', seen, true);
      removeEventListener('wheel', seen, true);
    }
  };
  addEventListener('pointerdown', seen, true);
  addEventListener('wheel', seen, { capture: true, passive: true });
}

function setAttribution(config) {
  const el = $('attribution');
  el.textContent = '';
  if (!config?.tileAttribution) return;
  const osm = /openstreetmap/i.test(config.tileAttribution);
  if (osm) {
    const a = document.createElement('a');
    a.href = 'https://www.openstreetmap.org/copyright';
    a.target = '_blank';
    a.rel = 'noopener';
    a.textContent = config.tileAttribution;
    el.append(a);
  } else {
    el.textContent = config.tileAttribution;
  }
}

function hideSplash() {
  const splash = $('splash');
  splash.classList.add('gone');
  setTimeout(() => { splash.hidden = true; }, 300);
}

function showBootError(err, retry) {
  const text = $('splash-text');
  text.textContent = err instanceof OfflineError
    ? 'Can’t reach Waymark. Check your connection and try again.'
    : `Something went wrong: ${err?.message ?? err}`;
  const b = $('splash-retry');
  b.hidden = false;
  b.onclick = () => { b.hidden = true; text.textContent = 'Loading the map…'; retry(); };
}

function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js').catch((e) => console.warn('service worker not registered', e));
}

const app = {
  map: /** @type {any} */ (null), parking: /** @type {any} */ (null), car: /** @type {any} */ (null), accounts: /** @type {any} */ (null),
};

/** The campus the schedule is about: the one on the map, else the first the server lists. */
async function currentSite() {
  const shown = app.parking?.store.state.site;
  if (shown) return shown;
  const { data } = await getJSON('/v1/sites');
  const site = /** @type {any} */ (data).sites?.[0];
  if (!site) throw new Error('No campus is set up on this server yet.');
  return site;
}

register({
  id: 'parking',
  title: 'Parking',
  async start({ map }) {
    app.parking = await startParking({
      map,
      car: app.car,
      accounts: app.accounts,
      setTiles(config) {
        map.setTiles(config?.tileURLTemplate ? { urlTemplate: config.tileURLTemplate, maxZoom: config.tileMaxZoom ?? 19 } : null);
        setAttribution(config);
      },
    });
  },
});

async function boot() {
  const map = createMap($('map'), { ...initialView(), minZoom: 0, maxZoom: 19, palette, label: 'Parking map' });
  app.map = map;
  wireToolbar(map);
  watchForMouse();
  onThemeChange(() => map.themeChanged());
  renderSwitcher();
  app.car = startCar({ map });
  app.accounts = startAccounts({
    site: currentSite,
    lotCode: (id) => app.parking?.store.state.lotById.get(id)?.code ?? null,
  });
  const start = async () => {
    try {
      for (const m of list()) await m.start({ map });
      hideSplash();
    } catch (err) {
      console.error(err);
      await new Promise((resolve, reject) => showBootError(err, () => start().then(resolve, reject)));
    }
  };
  await start();
  if (document.readyState === 'complete') registerServiceWorker();
  else addEventListener('load', registerServiceWorker, { once: true });
  return app;
}

const ready = boot();

// A small read-only surface for the browser tests and the benchmark; nothing in the app uses it.
Object.defineProperty(window, 'waymark', {
  value: Object.freeze({
    ready: ready.then(() => true),
    map: {
      getView: () => app.map?.getView(),
      setView: (v, o) => app.map?.setView(v, o),
      project: (p) => app.map?.project(p),
      renderNow: () => app.map?.renderNow(),
      stats: () => app.map?.stats(),
      size: () => app.map?.size(),
    },
    pins: () => app.parking?.pins() ?? [],
    visibleSpotCount: () => app.parking?.visibleSpotCount() ?? 0,
    spotColour: (lotId, ordinal) => app.parking?.spotColour(lotId, ordinal) ?? null,
    spotState: (lotId, ordinal) => app.parking?.spotState(lotId, ordinal) ?? null,
    palette: () => ({ ...palette() }),
    car: () => app.car?.car ?? null,
    /** The held spot on screen (PRK-9, PRK-10), with the walking line's screen points; null when none. */
    hold: () => app.parking?.holds.snapshot() ?? null,
    openLot: (id) => app.parking?.openLot(id),
    /** Height the lot card covers at the bottom of the screen (0 when closed or beside the map). */
    lotCardCovered: () => app.parking?.card.coveredHeight() ?? 0,
    chooseLevel: (id, level) => app.parking?.chooseLevel(id, level),
    fitCampus: () => app.parking?.fitCampus(0),
    /** Who this browser is to the server, and the Accounts screen shown (null when closed). */
    account: () => app.accounts?.state ?? null,
    openAccount: () => app.accounts?.open(),
    /** Unread notifications as the bell shows them (PRK-15). */
    unreadNotifications: () => app.accounts?.notifications.unread ?? 0,
    /** Benchmark only: draw all levels of every structure (the densest possible frame). */
    drawAllLevels: (on) => app.parking?.setAllLevels(on),
    get state() {
      const s = app.parking?.store.state;
      if (!s) return null;
      return {
        siteId: s.site?.id, asOf: s.asOf.toISOString(), fromCache: s.fromCache, live: app.parking.status.live,
        lastEventId: app.parking.live.lastEventId, spotsLoaded: [...s.spots.keys()], selected: app.parking.card.lotId,
        spotMinZoom: app.parking.spotMinZoom,
      };
    },
  }),
});
