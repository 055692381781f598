// Parking state in the browser: the site, its lots, every lot's occupancy and, for lots seen
// at spot zoom, spot geometry and states. Snapshots come from the API (on open and refresh),
// changes from the live stream; both funnel through here so the map, the card and the cache
// always agree.

import { OfflineError } from '../shell/api.js';
import { getConfig, listSites, listLots, getOccupancy, getSpots, getSpotStates } from './api.js';
import { saveSnapshot, loadSnapshot } from './snapshot-cache.js';
import { makeRectSet } from '../map/rects.js';
import { slotOf } from './colours.js';
import { chosenSite, nearestSite } from './site-picker.js';

/**
 * @typedef {{id: string, code: string, name: string, kind: 'structure'|'surface', levels: number,
 *   footprint: {latitude: number, longitude: number}[], center: {latitude: number, longitude: number},
 *   capacity: number, permitRules: any[], hours: any[], price: any, rules: string[], address: string}} Lot
 * @typedef {{lotId: string, total: number, occupied: number, held: number, booked: number, free: number,
 *   closed: number, unknown: number, fraction: number, level: string, version: number}} LotOccupancy
 * @typedef {{sets: Map<number, import('../map/rects.js').RectSet & {ordinals: Int32Array}>,
 *   slotOfOrdinal: Int32Array, levelOfOrdinal: Int16Array, spots: any[]}} LotSpots
 */

/** Spots are drawn a little smaller than their bay so neighbours stay apart. */
const SPOT_INSET = 0.84;

export function createParkingStore() {
  /** @type {Map<string, Set<Function>>} */
  const listeners = new Map();
  const emit = (type, detail) => { for (const fn of listeners.get(type) ?? []) fn(detail); };

  const s = {
    config: /** @type {any} */ (null),
    site: /** @type {any} */ (null),
    /** Every site of this Waymark, for the site picker; the shown one alone when offline. */
    sites: /** @type {any[]} */ ([]),
    /** @type {Lot[]} */
    lots: [],
    /** @type {Map<string, Lot>} */
    lotById: new Map(),
    /** @type {Map<string, LotOccupancy>} */
    occupancy: new Map(),
    /** Time the data was last known to be right (server clock). */
    asOf: new Date(0),
    lastEventId: 0,
    /** True while what is shown came from the device's copy, not the server. */
    fromCache: false,
    /** @type {Map<string, LotSpots>} */
    spots: new Map(),
    /** @type {Map<string, {codes: Uint8Array, version: number}>} */
    states: new Map(),
    /** @type {Map<string, number>} chosen level of each structure */
    level: new Map(),
  };
  /** @type {Map<string, Promise<void>>} */
  const loading = new Map();
  /** Live changes that arrived while a lot's spot states were being fetched. */
  /** @type {Map<string, any[]>} */
  const pending = new Map();
  let saveTimer = 0;

  function setLots(lots) {
    s.lots = lots;
    s.lotById = new Map(lots.map((l) => [l.id, l]));
  }

  function setOccupancy(list) {
    for (const o of list) s.occupancy.set(o.lotId, o);
  }

  function setStates(lotId, text, version) {
    const codes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) codes[i] = text.charCodeAt(i);
    s.states.set(lotId, { codes, version });
    recolour(lotId);
  }

  /** Copies states into the rectangle colours of every level of a lot. */
  function recolour(lotId) {
    const sp = s.spots.get(lotId);
    const st = s.states.get(lotId);
    if (!sp) return;
    for (const set of sp.sets.values()) {
      for (let i = 0; i < set.count; i++) {
        const ord = set.ordinals[i];
        set.colour[i] = st && ord < st.codes.length ? slotOf(st.codes[ord]) : 4;
      }
      set.version++;
    }
  }

  /** Sets one spot's state in the states and in the colour of its rectangle. */
  function applyToSpot(change) {
    const st = s.states.get(change.lotId);
    if (!st || change.ordinal >= st.codes.length) return;
    st.codes[change.ordinal] = change.state.charCodeAt(0);
    if (change.lot && change.lot.version > st.version) st.version = change.lot.version;
    const sp = s.spots.get(change.lotId);
    if (!sp || change.ordinal >= sp.slotOfOrdinal.length) return;
    const set = sp.sets.get(sp.levelOfOrdinal[change.ordinal]);
    if (set) {
      set.colour[sp.slotOfOrdinal[change.ordinal]] = slotOf(st.codes[change.ordinal]);
      set.version++;
    }
  }

  function snapshotForCache() {
    const states = {};
    for (const [lotId, st] of s.states) states[lotId] = { states: String.fromCharCode(...st.codes), version: st.version };
    return {
      asOf: s.asOf.toISOString(), lastEventId: s.lastEventId, config: s.config, site: s.site,
      lots: s.lots, occupancy: [...s.occupancy.values()], states,
    };
  }

  function persistSoon() {
    if (s.fromCache) return;
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => saveSnapshot(snapshotForCache()), 3000);
  }

  function restore(saved) {
    s.config = saved.config;
    s.site = saved.site;
    if (!s.sites.length) s.sites = [saved.site];
    setLots(saved.lots);
    s.occupancy.clear();
    setOccupancy(saved.occupancy);
    s.asOf = new Date(saved.asOf);
    s.lastEventId = saved.lastEventId ?? 0;
    for (const [lotId, st] of Object.entries(saved.states ?? {})) setStates(lotId, st.states, st.version);
    s.fromCache = true;
  }

  const api = {
    state: s,
    on(type, fn) {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type)?.add(fn);
      return () => listeners.get(type)?.delete(fn);
    },

    /**
     * Opens with the server's snapshot, or with the device's copy when the server is out of
     * reach. Throws OfflineError when there is neither.
     */
    async load() {
      const saved = loadSnapshot();
      try {
        const guess = chosenSite() ?? saved?.site?.id;
        const early = guess ? [listLots(guess), getOccupancy(guess)] : null;
        early?.forEach((p) => p.catch(() => {}));
        const [config, sites] = await Promise.all([getConfig(), listSites()]);
        const site = sites.data.sites.find((x) => x.id === guess)
          ?? (guess ? null : await nearestSite(sites.data.sites)) ?? sites.data.sites[0];
        s.sites = sites.data.sites;
        if (!site) {
          const none = new Error('This Waymark has no parking site yet. Whoever runs it adds one with “waymark import site”, or starts it with the demo; then try again.');
          none.name = 'no-sites';
          throw none;
        }
        const [lots, occupancy] = early && site.id === guess
          ? await Promise.all(early)
          : await Promise.all([listLots(site.id), getOccupancy(site.id)]);
        if ((occupancy.fromCache || lots.fromCache) && saved) {
          restore(saved);
        } else {
          s.config = config.data;
          s.site = site;
          setLots(lots.data.lots);
          s.occupancy.clear();
          setOccupancy(occupancy.data.lots);
          s.asOf = new Date(occupancy.data.asOf);
          s.lastEventId = occupancy.data.lastEventId ?? 0;
          s.fromCache = occupancy.fromCache;
          if (!s.fromCache) saveSnapshot(snapshotForCache());
        }
      } catch (err) {
        if (!saved) throw err;
        restore(saved);
      }
      emit('snapshot');
    },

    /** Fetches a fresh snapshot of every lot and of the spot states already on screen (PRK-5). */
    async refresh() {
      const site = s.site;
      const occ = await getOccupancy(site.id);
      if (occ.fromCache) throw new OfflineError('The server cannot be reached.');
      setOccupancy(occ.data.lots);
      s.asOf = new Date(occ.data.asOf);
      s.lastEventId = occ.data.lastEventId ?? s.lastEventId;
      s.fromCache = false;
      const lotIds = [...s.spots.keys()];
      await Promise.all(lotIds.map((id) => api.fetchStates(id).catch(() => {})));
      saveSnapshot(snapshotForCache());
      emit('snapshot');
    },

    async fetchStates(lotId) {
      if (!pending.has(lotId)) pending.set(lotId, []);
      try {
        const r = await getSpotStates(lotId);
        const buffered = pending.get(lotId) ?? [];
        pending.delete(lotId);
        const current = s.states.get(lotId);
        // A copy from the device cache must not replace newer states we already hold.
        if (!r.fromCache || !current || r.data.version >= current.version) setStates(lotId, r.data.states, r.data.version);
        const version = s.states.get(lotId)?.version ?? 0;
        for (const change of buffered) if (!change.lot || change.lot.version > version) applyToSpot(change);
      } finally {
        pending.delete(lotId);
      }
      persistSoon();
      emit('states', lotId);
    },

    /** Loads a lot's spot geometry and states once, when it first comes into view at spot zoom. */
    ensureSpots(lotId) {
      if (s.spots.has(lotId)) return Promise.resolve();
      let p = loading.get(lotId);
      if (p) return p;
      p = (async () => {
        const statesLoad = api.fetchStates(lotId);
        const geo = await getSpots(lotId);
        const spots = geo.data.spots;
        const byLevel = new Map();
        for (const spot of spots) {
          if (!byLevel.has(spot.level)) byLevel.set(spot.level, []);
          byLevel.get(spot.level).push(spot);
        }
        const slotOfOrdinal = new Int32Array(spots.length + 1);
        const levelOfOrdinal = new Int16Array(spots.length + 1);
        const sets = new Map();
        for (const [level, list] of byLevel) {
          const footprint = s.lotById.get(lotId)?.footprint.map((q) => ({ lat: q.latitude, lon: q.longitude }));
          const set = makeRectSet(`${lotId}:${level}`, list.map((x) => ({
            lat: x.center.latitude, lon: x.center.longitude, heading: x.heading, length: x.length, width: x.width,
          })), SPOT_INSET, footprint);
          const ordinals = new Int32Array(list.map((x) => x.ordinal));
          list.forEach((x, i) => {
            if (x.ordinal < slotOfOrdinal.length) { slotOfOrdinal[x.ordinal] = i; levelOfOrdinal[x.ordinal] = level; }
          });
          sets.set(level, Object.assign(set, { ordinals, data: { lotId, level, spots: list } }));
        }
        s.spots.set(lotId, { sets, slotOfOrdinal, levelOfOrdinal, spots });
        recolour(lotId);
        await statesLoad.catch(() => {});
        emit('spots', lotId);
      })().finally(() => loading.delete(lotId));
      loading.set(lotId, p);
      p.catch(() => {});
      return p;
    },

    /** Applies one `spot` event from the live stream. */
    applySpot(change) {
      s.fromCache = false;
      const lot = change.lot;
      const known = s.occupancy.get(change.lotId);
      if (lot && (!known || lot.version >= known.version)) s.occupancy.set(change.lotId, lot);
      if (change.at) { const at = new Date(change.at); if (at > s.asOf) s.asOf = at; }
      pending.get(change.lotId)?.push(change);
      applyToSpot(change);
      emit('change', change.lotId);
      persistSoon();
    },

    /** A lot's counts moved without a spot changing (spaces kept for booked drivers). */
    applyLot(lot) {
      s.fromCache = false;
      const known = s.occupancy.get(lot.lotId);
      if (known && lot.version < known.version) return;
      s.occupancy.set(lot.lotId, lot);
      emit('change', lot.lotId);
      persistSoon();
    },

    /** The stream could not resume: everything is fetched again. */
    async reset() {
      await api.refresh();
    },

    setLevel(lotId, level) {
      s.level.set(lotId, level);
      emit('level', lotId);
    },
    levelOf: (lotId) => s.level.get(lotId) ?? 0,

    /** Marks the data as known right up to now (the live stream is connected). */
    touch(date = new Date()) {
      if (date > s.asOf) s.asOf = date;
    },

    persistNow() { if (!s.fromCache) saveSnapshot(snapshotForCache()); },
  };
  return api;
}
