// The parking module: live congestion pins, spot bars, lot cards, refresh and the offline
// copy, on the shared map (seed Features 1, 2, 11; PRK-5, 7, 8, 18, 19).

import { createParkingStore } from './store.js';
import { parkingLayers } from './layers.js';
import { createLotCard } from './lot-card.js';
import { createLevelPicker } from './level-picker.js';
import { createStatus } from './status.js';
import { createLotList } from './lot-list.js';
import { connectLive } from './live.js';
import { spotPalette } from './colours.js';
import { toast } from '../shell/toast.js';
import { watchToggle } from '../notifications/watches.js';
import { onThemeChange } from '../shell/theme.js';
import { clockTime } from './format.js';
import { startHolds } from './holds.js';
import { bookingSection } from './booking-form.js';
import { reviewsSection } from './reviews.js';
import { createLotFinder } from './lot-finder.js';
import { liveURL } from './api.js';
import { createSitePicker } from './site-picker.js';

const CATEGORY = { handicap: 'Accessible', ev: 'EV charging', motorcycle: 'Motorcycle', visitor: 'Visitor', reserved: 'Reserved' };
const STATE = { f: 'Free', o: 'Taken', h: 'Held', b: 'Booked', c: 'Closed', u: 'No sensor reading' };

/** @typedef {import('../map/index.js').WaymarkMap} WaymarkMap */

/**
 * @param {{map: WaymarkMap, setTiles: (config: any) => void,
 *   car?: {saveAt: (place: {lat: number, lon: number, spot?: string}) => void},
 *   accounts?: () => {openSignedIn: (view: 'bookings'|'wallet', notice: string, focus?: string) => void}|undefined,
 *   onCard?: (lotId: string|null) => void}} ctx
 *   onCard: the lot card opened on a lot, or closed (null), so the shell can give it its URL
 */
export async function startParking(ctx) {
  const { map } = ctx;
  const store = createParkingStore();
  const s = store.state;
  const spotMinZoom = map.maxZoom - 3;
  /** @type {string|null} */
  let selected = null;
  /** Benchmark only: draw every level of every structure at once, the worst case. */
  let allLevels = false;

  const pl = parkingLayers(store, {
    spotMinZoom, selected: () => selected, allLevels: () => allLevels, tilesShown: () => map.tilesShown(),
  });
  const status = createStatus({ store });
  const levels = createLevelPicker({ store, onPick: chooseLevel });
  const card = createLotCard({
    store,
    onClose: () => { selected = null; pl.refresh(); map.invalidate(); ctx.onCard?.(null); },
    onLevel: (lotId, level) => chooseLevel(lotId, level, true),
    watch: (lot) => watchToggle(lot),
    booking: (lot, timeZone) => bookingSection({
      lot,
      timeZone,
      onSignIn: () => ctx.accounts?.()?.openSignedIn('bookings', 'Sign in or create an account to book: bookings are paid from a wallet that stays with your account.'),
      onBooked: (booking) => ctx.accounts?.()?.openSignedIn('bookings', '', booking?.id),
    }),
    reviews: (lot) => reviewsSection({
      lot,
      onSignIn: () => ctx.accounts?.()?.openSignedIn('bookings', 'Sign in or create an account to review a lot: your review carries your username and you can edit it from any device.'),
      onRating: (lotId, rating) => { const l = s.lotById.get(lotId); if (l) l.rating = rating; },
    }),
  });
  const finder = createLotFinder({
    siteId: () => s.site.id,
    site: () => s.site,
    center: () => map.getView().center,
    openLot: (lotId) => flyToLot(lotId),
  });
  createLotList({ store, onOpen: (id) => openLot(id) });
  const legend = /** @type {HTMLElement} */ (document.getElementById('legend'));

  await store.load();
  ctx.setTiles(s.config);
  pl.refresh();
  const siteName = document.getElementById('site-name');
  if (siteName) siteName.textContent = shortName(s.site);
  createSitePicker({ chip: /** @type {HTMLElement} */ (document.getElementById('site-chip')), sites: () => s.sites, current: () => s.site });

  const b = s.site.bounds;
  const padLat = (b.north - b.south) * 1.5;
  const padLon = (b.east - b.west) * 1.5;
  map.setMaxBounds({ north: b.north + padLat, south: b.south - padLat, east: b.east + padLon, west: b.west - padLon });
  fitCampus(0);
  for (const layer of pl.layers) map.addLayer(layer);
  map.renderNow();
  performance.mark('waymark-usable');
  status.update();

  const live = connectLive({
    url: (id) => liveURL(s.site.id, id),
    lastEventId: s.lastEventId,
    onSpot: (change) => store.applySpot(change),
    onLot: (lot) => store.applyLot(lot),
    onReset: () => { store.reset().catch(() => {}); },
    onStatus: (st) => {
      const wasCached = s.fromCache;
      status.setLive(st);
      // Back in reach after opening from the device's copy: replace it with a real snapshot.
      if (st === 'live' && wasCached) refresh(false);
    },
  });

  const holds = startHolds({
    map, store, spotMinZoom, car: ctx.car,
    chooseLevel: (lotId, level) => chooseLevel(lotId, level),
    closeCard: () => card.close(),
    refresh: () => { refresh(false); },
  });

  let drawPending = false;
  const redraw = () => {
    if (drawPending) return;
    drawPending = true;
    requestAnimationFrame(() => { drawPending = false; pl.refreshPins(); map.invalidate(); });
  };
  store.on('change', redraw);
  store.on('spots', () => map.invalidate());
  store.on('states', () => map.invalidate());
  store.on('level', () => map.invalidate());
  store.on('snapshot', () => {
    pl.refresh();
    map.invalidate();
    live.lastEventId = Math.max(live.lastEventId, s.lastEventId);
  });
  onThemeChange(() => { pl.refresh(); map.invalidate(); });

  map.on('render', (frame) => {
    const spotZoom = frame.zoom >= spotMinZoom;
    legend.hidden = !spotZoom;
    if (spotZoom) {
      for (const lot of pl.lotsIn(frame.bounds)) store.ensureSpots(lot.id);
      levels.show(frame.zoom >= spotMinZoom + 1 ? focusedStructure(frame) : null);
    } else {
      levels.show(null);
    }
  });

  map.on('tap', ({ hit }) => {
    if (!hit) { card.close(); return; }
    if (hit.layer === 'pins' && hit.feature.site) { card.close(); fitCampus(500); }
    else if (hit.layer === 'pins' || hit.layer === 'lots') openLot(hit.feature.lotId);
    else if (hit.layer === 'spots') {
      const { set, index } = hit.feature;
      const spot = set.data.spots[index];
      openLot(set.data.lotId, { spot: describeSpot(set.data.lotId, spot), extra: holds.offer(set.data.lotId, spot) });
    }
  });

  document.getElementById('btn-refresh')?.addEventListener('click', () => refresh(true));

  let hiddenAt = 0;
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') { hiddenAt = Date.now(); store.persistNow(); }
    else if (hiddenAt && Date.now() - hiddenAt > 5 * 60_000) refresh(false);
  });
  addEventListener('pagehide', () => {
    if (live.status === 'live') store.touch();
    store.persistNow();
  });

  function fitCampus(animate) {
    map.fitBounds(s.site.bounds, {
      padding: { top: 64, right: 64, bottom: 24, left: 16 },
      // Campus zoom stays just outside spot zoom: pins first, spots when the user zooms in.
      maxZoom: spotMinZoom - 0.25,
      animate,
    });
  }

  async function refresh(byUser) {
    const button = document.getElementById('btn-refresh');
    button?.classList.add('spinning');
    button?.setAttribute('aria-busy', 'true');
    try {
      await store.refresh();
      if (live.status !== 'live') live.reconnect();
      status.update();
      if (byUser) toast('Occupancy updated');
    } catch {
      status.update();
      if (byUser) toast(`Can't reach Waymark · showing data as of ${clockTime(s.asOf)}`);
    } finally {
      button?.classList.remove('spinning');
      button?.removeAttribute('aria-busy');
    }
  }

  function openLot(lotId, opts = {}) {
    selected = lotId;
    pl.refresh();
    card.open(lotId, opts);
    map.invalidate();
    ctx.onCard?.(lotId);
    // Keep the lot in sight above the sheet.
    requestAnimationFrame(() => {
      const lot = s.lotById.get(lotId);
      const covered = card.coveredHeight();
      if (!lot || !covered) return;
      const { width, height } = map.size();
      const p = map.project({ lat: lot.center.latitude, lon: lot.center.longitude });
      const visibleBottom = height - covered;
      if (p.y > visibleBottom - 50 || p.y < 70) {
        const target = map.unproject(width / 2, height / 2 + (p.y - visibleBottom / 2));
        map.setView({ center: { lat: target.lat, lon: target.lon } }, { animate: 300 });
      }
    });
  }

  /**
   * From the lot finder or a lot's URL: the map moves to the lot, close enough to see it, and
   * opens its card. @returns {boolean} whether the lot exists
   */
  function flyToLot(lotId, animate = 400) {
    const lot = s.lotById.get(lotId);
    if (!lot) return false;
    const zoom = Math.max(map.getView().zoom, spotMinZoom - 0.5);
    map.setView({ center: { lat: lot.center.latitude, lon: lot.center.longitude }, zoom }, animate ? { animate } : {});
    openLot(lotId);
    return true;
  }

  function chooseLevel(lotId, level, fromCard = false) {
    store.setLevel(lotId, level);
    store.ensureSpots(lotId);
    if (fromCard && map.getView().zoom < spotMinZoom + 1) {
      const lot = s.lotById.get(lotId);
      if (lot) {
        const lats = lot.footprint.map((q) => q.latitude);
        const lons = lot.footprint.map((q) => q.longitude);
        const bottom = card.coveredHeight();
        map.fitBounds(
          { north: Math.max(...lats), south: Math.min(...lats), east: Math.max(...lons), west: Math.min(...lons) },
          { padding: { top: 70, right: 70, bottom: bottom + 20, left: 20 }, maxZoom: 18.5, animate: 400 },
        );
      }
    }
  }

  /** The structure at the middle of the screen, or the nearest one close to it. */
  function focusedStructure(frame) {
    let best = null;
    let bestD = Infinity;
    for (const lot of pl.lotsIn(frame.bounds)) {
      if (lot.kind !== 'structure' || lot.levels < 2) continue;
      const bx = pl.boxOf(lot.id);
      if (!bx) continue;
      const dx = Math.max(bx.minX - frame.mx, 0, frame.mx - bx.maxX);
      const dy = Math.max(bx.minY - frame.my, 0, frame.my - bx.maxY);
      const d = Math.hypot(dx, dy) * frame.scale;
      if (d < bestD) { bestD = d; best = lot; }
    }
    return best && bestD < Math.min(frame.width, frame.height) * 0.25 ? best : null;
  }

  /** "CSU Fullerton" rather than the full legal name, on a phone-width chip. */
  function shortName(site) {
    const m = /^California State University,\s*(.+)$/.exec(site.name);
    return m ? `CSU ${m[1]}` : site.name;
  }

  function describeSpot(lotId, spot) {
    const st = s.states.get(lotId);
    const code = st ? String.fromCharCode(st.codes[spot.ordinal]) : 'u';
    const lot = s.lotById.get(lotId);
    const parts = [`Spot ${spot.label}`];
    if (lot?.kind === 'structure') parts.push(spot.level === 0 ? 'Ground level' : `Level ${spot.level + 1}`);
    parts.push(code === 'h' && holds.snapshot()?.spotId === spot.id ? 'Held by you' : STATE[code] ?? 'Unknown');
    if (CATEGORY[spot.category]) parts.push(CATEGORY[spot.category]);
    return parts.join(' · ');
  }

  return {
    store,
    live,
    status,
    card,
    holds,
    finder,
    openLot,
    flyToLot,
    chooseLevel,
    fitCampus,
    refresh,
    spotMinZoom,
    /** Pins drawn in the last frame, with their screen positions (tests). */
    pins: () => pl.pinsLayer.drawn().map((d) => ({
      lotId: d.pin.data.lotId ?? null, site: d.pin.data.site ?? null, code: d.pin.label, level: d.pin.data.level, colour: d.pin.fill,
      screenX: d.x, screenY: d.y, radius: d.r, caption: d.pin.caption,
    })),
    visibleSpotCount: () => pl.spotLayer.drawnCount(),
    setAllLevels(on) { allLevels = !!on; map.invalidate(); },
    /** The colour a spot is drawn with, or null when its lot's spots are not loaded. */
    spotColour(lotId, ordinal) {
      const sp = s.spots.get(lotId);
      if (!sp || ordinal >= sp.slotOfOrdinal.length) return null;
      const set = sp.sets.get(sp.levelOfOrdinal[ordinal]);
      if (!set) return null;
      const slot = set.colour[sp.slotOfOrdinal[ordinal]];
      return spotPalette()[slot] ?? null;
    },
    spotState(lotId, ordinal) {
      const st = s.states.get(lotId);
      return st && ordinal < st.codes.length ? String.fromCharCode(st.codes[ordinal]) : null;
    },
  };
}
