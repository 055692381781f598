// Waymark web app entry: the shell — the map, the navigation between areas, the URL of each
// screen, theme and offline support — and the areas listed in areas.js, each of which adds its
// layers to the shared map. Accounts belong to the shell's person area ("You"): one identity
// for every area. Parking and You start when the app opens; another area starts the first time
// it is shown, so a first visit loads and starts only what its first screen needs.

import { createMap } from './map/index.js';
import { palette, onThemeChange } from './shell/theme.js';
import { OfflineError } from './shell/api.js';
import { loadSnapshot } from './parking/snapshot-cache.js';
import { listSites } from './parking/api.js';
import { AREAS } from './areas.js';
import { renderNav } from './shell/nav.js';
import { startRouter, watchPath, go, leave } from './shell/router.js';
import { startBaseMap } from './shell/base-map.js';
import { startMyLocation } from './shell/my-location.js';
import { countDirections } from './shell/directions.js';
import { toast } from './shell/toast.js';
import { onSessionChange } from './accounts/session.js';

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
  if (config?.mapImagesPaused) { el.textContent = 'Map images are paused until tomorrow'; return; }
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
    : err?.name === 'no-sites' ? err.message : `Something went wrong: ${err?.message ?? err}`;
  const b = $('splash-retry');
  b.hidden = false;
  b.onclick = () => { b.hidden = true; text.textContent = 'Loading the map…'; retry(); };
}

function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js').catch((e) => console.warn('service worker not registered', e));
}

/**
 * What the areas offer each other (parking, accounts, car, currentSite) and the tests read
 * (rooms, trails, planner): an area's entry is there once it has started, so a caller copes
 * with its absence (Parking and You start before any other area).
 * @type {Record<string, any>}
 */
const services = {};
const app = {
  map: /** @type {any} */ (null),
  myLocation: /** @type {ReturnType<typeof startMyLocation>|null} */ (null),
  get parking() { return services.parking ?? null; },
  get car() { return services.car ?? null; },
  get accounts() { return services.accounts ?? null; },
};

/** The campus the schedule is about: the one on the map, else the first the server lists. */
services.currentSite = async () => {
  const shown = app.parking?.store.state.site;
  if (shown) return shown;
  const { data } = await listSites();
  const site = /** @type {any} */ (data).sites?.[0];
  if (!site) throw new Error('No campus is set up on this server yet.');
  return site;
};

/** @type {Map<string, {entry: import('./areas.js').AreaEntry, area: any}>} */
const started = new Map();
/** @type {Map<string, Promise<any>>} each area's start, begun once however often it is asked for */
const starting = new Map();
/** What the areas are given at start: set by boot before any area starts. */
let shell = /** @type {any} */ (null);
/** The path of the map area last shown: where closing an area that opens over it leads. */
let basePath = '/';
/** Counts the paths shown: an area that finishes loading shows its path only if none came since. */
let shownCount = 0;

const areaOf = (path) => AREAS.find((a) => a.match.test(path)) ?? null;

/**
 * Loads and starts an area, once; its module loads then, not before.
 * @param {import('./areas.js').AreaEntry} entry @returns {Promise<any>} what its start returned
 */
function startArea(entry) {
  let begun = starting.get(entry.id);
  if (!begun) {
    begun = entry.load().then((mod) => {
      const area = mod.start(shell);
      started.set(entry.id, { entry, area });
      return area;
    });
    // Not loaded (offline before the service worker kept the files): asking again retries.
    begun.catch(() => starting.delete(entry.id));
    starting.set(entry.id, begun);
  }
  return begun;
}

/** Shows what a path names: its area, with every other area hidden or (under an overlay) kept. */
function showPath(path) {
  const entry = areaOf(path);
  if (!entry) { go('/', { replace: true }); return; }
  const count = ++shownCount;
  for (const [id, s] of started) if (id !== entry.id) s.area.hide?.(entry);
  const here = started.get(entry.id);
  if (here) { here.area.show?.(path); return; }
  // Its first showing: the area starts now (hidden, as every area starts), then shows the path.
  startArea(entry).then((area) => { if (count === shownCount) area.show?.(path); }, (err) => {
    console.error(err);
    toast(`${entry.title} could not be loaded. Check your connection and try again.`, 4000);
  });
}

/** Starts the areas with work under way while not shown (areas.js `running`), in the background. */
function startRunning() {
  for (const entry of AREAS) {
    if (!starting.has(entry.id) && entry.running?.()) startArea(entry).catch((err) => console.warn(`${entry.id} not started`, err));
  }
}

async function boot() {
  const map = createMap($('map'), { ...initialView(), minZoom: 0, maxZoom: 19, palette, label: 'Parking map' });
  app.map = map;
  wireToolbar(map);
  const baseMap = startBaseMap(/** @type {HTMLButtonElement} */ ($('btn-base-map')), (source, config) => {
    map.setTiles(source ? { urlTemplate: source.urlTemplate, maxZoom: source.maxZoom } : null);
    setAttribution(source ? { tileAttribution: source.attribution } : config);
  });
  app.myLocation = startMyLocation(map, /** @type {HTMLButtonElement} */ ($('btn-locate')), $('my-location'));
  watchForMouse();
  onThemeChange(() => map.themeChanged());
  shell = {
    map,
    services,
    basePath: () => basePath,
    setTiles(config) { baseMap.setConfig(config); countDirections(!!config?.mapUsageCounted); },
  };

  // A tab leads to where its area was left (its home when it is the current one); leaving the
  // person's space for the map it opened over goes back through the entries it pushed.
  const nav = renderNav($('areas'), AREAS, (id) => {
    const entry = /** @type {import('./areas.js').AreaEntry} */ (AREAS.find((a) => a.id === id));
    const here = areaOf(location.pathname);
    const layer = entry.overlay ? id : null;
    if (here?.id === id) { if (location.pathname !== entry.home) go(entry.home, { layer }); return; }
    const target = entry.overlay ? entry.home : (areaOf(basePath)?.id === id ? basePath : entry.home);
    if (here?.overlay && target === basePath) {
      started.get(here.id)?.area.hide?.(entry);
      leave(here.id, target);
    } else {
      go(target, { layer });
    }
  });
  nav.setCurrent(areaOf(location.pathname)?.id ?? AREAS[0].id);
  watchPath((path) => {
    const entry = areaOf(path);
    if (!entry) return;
    if (!entry.overlay) basePath = path;
    nav.setCurrent(entry.id);
  });

  // The splash waits for the areas started now: Parking and You, and the area the app opens on.
  // You starts before Parking's map is drawn, so the toolbar's bell works once the pins show.
  const opening = areaOf(location.pathname);
  const first = AREAS.filter((a) => a.boot || a === opening);
  const start = async () => {
    try {
      const areas = await Promise.all(first.map(startArea));
      for (const area of areas) await area.ready?.();
      hideSplash();
    } catch (err) {
      console.error(err);
      await new Promise((resolve, reject) => showBootError(err, () => start().then(resolve, reject)));
    }
  };
  await start();
  startRouter(showPath);
  startRunning();
  onSessionChange(startRunning);
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
    /** Pins drawn in the last frame, at their positions in the window (the map starts beside the rail). */
    pins: () => {
      const at = $('map').getBoundingClientRect();
      return (app.parking?.pins() ?? []).map((p) => ({ ...p, screenX: p.screenX + at.left, screenY: p.screenY + at.top }));
    },
    /** Rooms as it is now: the campus, the building and level shown, the place chosen, the route's steps. */
    rooms: () => {
      const r = services.rooms?.state;
      return r ? { venue: r.venue?.id ?? null, building: r.building?.id ?? null, level: r.levelId, selected: r.selected?.id ?? null,
        steps: r.route?.steps.map((st) => ({ kind: st.kind, level: st.levelId ?? null })) ?? [] } : null;
    },
    /** Trails as it is now: the trails on the map, the page open, the starred ones, a forum pin shown and one being written. */
    trails: () => {
      const t = services.trails?.state;
      return t ? { onMap: t.mapTrails.map((x) => x.id), open: t.open?.summary.id ?? null, favourites: [...t.favourites], pin: t.pin, compose: t.compose,
        friends: t.friendsOnMap(), hike: t.hikePath } : null;
    },
    visibleSpotCount: () => app.parking?.visibleSpotCount() ?? 0,
    spotColour: (lotId, ordinal) => app.parking?.spotColour(lotId, ordinal) ?? null,
    spotState: (lotId, ordinal) => app.parking?.spotState(lotId, ordinal) ?? null,
    palette: () => ({ ...palette() }),
    car: () => app.car?.car ?? null,
    /** The person's position as the map shows it, or null (TRL-2). */
    myLocation: () => app.myLocation?.position() ?? null,
    /** The base map shown: 'default' or 'satellite'. */
    baseMap: () => document.getElementById('btn-base-map')?.getAttribute('aria-pressed') === 'true' ? 'satellite' : 'default',
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
