// Rooms: the campus map with its buildings, a building's floor plan level by level, one search
// box for rooms, buildings, people and services, and walking routes drawn level by level with
// their steps. Everything a person may share is a path:
//   /rooms/<venue>                         the campus
//   /rooms/<venue>/place/<id>              a room, building, person or service, highlighted
//   /rooms/<venue>/route/<from>/<to>[/step-free]
// where <from> is a place's id or here@<lat×10⁶>,<lon×10⁶>[,<level>] and <to> a place's id or
// nearest-<kind>.

import { el } from '../shell/dom.js';
import { toast } from '../shell/toast.js';
import { OfflineError, ProblemError } from '../shell/api.js';
import { listVenues, getVenue, getLevelMap, searchPlaces, getPlace, getPerson, getRoute } from './api.js';
import { addRoomLayers, rings } from './layers.js';
import { inside } from '../map/shapes.js';
import { walkTime, distance, inUnits, KIND_WORDS, NEAREST } from './format.js';

const VENUE_KEY = 'waymark.rooms.venue';
const LAYER_KEY = 'waymark.rooms.layers';
const LAYERS = [['restroom', 'Restrooms'], ['elevator', 'Elevators'], ['service', 'Offices and services'], ['bikes', 'Bike racks']];

/** @param {{map: any, record: (path: string, o?: any) => void}} o */
export function startRooms({ map, record }) {
  const state = {
    venues: /** @type {any[]} */ ([]),
    venue: /** @type {any} */ (null),
    building: /** @type {any} */ (null),
    levelId: /** @type {string|null} */ (null),
    plans: new Map(),
    grounds: /** @type {any[]} */ ([]),
    selected: /** @type {any} */ (null),
    route: /** @type {any} */ (null),
    routeEnds: /** @type {{from: string, to: string, stepFree: boolean}|null} */ (null),
    start: /** @type {{lat: number, lon: number, levelId: string|null}|null} */ (null),
    picking: false,
    shown: false,
    /** The map's view when Rooms opened over Parking's campus, given back when Rooms is left. */
    viewBefore: /** @type {any} */ (null),
    layers: readLayers(),
  };
  const view = () => (state.shown ? {
    venue: state.venue, building: state.building, levelId: state.levelId, plan: state.levelId ? state.plans.get(state.levelId) : null,
    grounds: state.grounds, selected: state.selected, route: state.route, start: state.start, layers: state.layers,
  } : { venue: null, building: null, plan: null, grounds: [], selected: null, route: null, start: null, layers: {} });
  addRoomLayers(map, view);

  // ---- The sheet ----
  const campus = el('select', { id: 'rooms-campus', class: 'rooms-campus', 'aria-label': 'Campus', on: { change: () => openVenue(campus.value, true) } });
  const search = el('input', {
    id: 'rooms-search', type: 'search', class: 'rooms-search', placeholder: 'Room, building, person or service',
    autocomplete: 'off', spellcheck: false, 'aria-label': 'Search rooms, buildings, people and services',
    'aria-controls': 'rooms-results', on: { input: onType, keydown: onSearchKey },
  });
  const results = el('ul', { id: 'rooms-results', class: 'rooms-results', 'aria-label': 'Search results', hidden: true });
  const levels = el('div', { id: 'rooms-levels', class: 'rooms-levels', role: 'group', 'aria-label': 'Level', hidden: true });
  const body = el('div', { id: 'rooms-body', class: 'rooms-body' });
  const toggles = el('fieldset', 'rooms-toggles', el('legend', null, 'Show on the map'),
    LAYERS.map(([key, label]) => el('label', 'rooms-toggle',
      el('input', { type: 'checkbox', checked: !!state.layers[key], dataset: { layer: key }, on: { change: (e) => toggleLayer(key, e.target.checked) } }),
      el('span', null, label))));
  const sheet = el('section', { id: 'rooms', class: 'sheet rooms-sheet', hidden: true, 'aria-label': 'Rooms' },
    el('div', 'sheet-body',
      el('div', 'rooms-head', el('label', { class: 'visually-hidden', htmlFor: 'rooms-campus' }, 'Campus'), campus),
      el('div', 'rooms-search-row', search), results, levels, body, toggles));
  document.getElementById('app')?.append(sheet);

  // ---- Loading ----
  async function ready() {
    const { data } = await listVenues();
    state.venues = /** @type {any} */ (data).venues ?? [];
    campus.replaceChildren(...state.venues.map((v) => el('option', { value: v.id }, v.name)));
  }

  /** @param {string} id @param {boolean} [byPerson] the person chose it in the picker */
  async function openVenue(id, byPerson = false) {
    if (state.venue?.id === id) return true;
    let venue;
    try {
      venue = (await getVenue(id)).data;
    } catch (err) {
      if (err instanceof ProblemError && err.status === 404) return false;
      throw err;
    }
    state.venue = venue;
    state.building = null;
    state.levelId = null;
    state.plans = new Map();
    state.selected = null;
    state.route = null;
    state.grounds = [];
    campus.value = id;
    localStorage.setItem(VENUE_KEY, id);
    map.fitBounds(venue.bounds, { padding: padding(), animate: 300 });
    renderLevels();
    renderHome();
    Promise.all(venue.grounds.map((l) => getLevelMap(id, l.id).then((r) => r.data).catch(() => null)))
      .then((plans) => { if (state.venue === venue) { state.grounds = plans.filter(Boolean); map.invalidate(); } });
    if (byPerson) record(`/rooms/${encodeURIComponent(id)}`);
    return true;
  }

  /** Centres a point in the part of the map the sheet leaves visible. */
  function focus(position, zoom) {
    const { latitude: lat, longitude: lon } = position;
    map.fitBounds({ south: lat, north: lat, west: lon, east: lon }, { padding: padding(), maxZoom: zoom, animate: 300 });
  }

  function padding() {
    const wide = innerWidth >= 760;
    return wide ? { top: 60, right: 60, bottom: 60, left: 420 } : { top: 60, right: 30, bottom: Math.round(innerHeight * 0.45), left: 30 };
  }

  /** Opens a building's floor plan at a level (its ground floor unless told). */
  async function openLevel(building, levelId) {
    state.building = building;
    const level = levelId ?? (building.levels.find((l) => l.ordinal === 0) ?? building.levels[0])?.id ?? null;
    state.levelId = level;
    renderLevels();
    if (level && !state.plans.has(level)) {
      try {
        const plan = (await getLevelMap(state.venue.id, level)).data;
        state.plans.set(level, plan);
      } catch (err) {
        toast(err instanceof OfflineError ? 'This floor plan has not been opened before and Waymark is offline.' : 'The floor plan could not be loaded.');
      }
    }
    map.invalidate();
  }

  function buildingOfLevel(levelId) {
    return state.venue?.buildings.find((b) => b.levels.some((l) => l.id === levelId)) ?? null;
  }

  function renderLevels() {
    const b = state.building;
    levels.hidden = !b || b.levels.length < 1;
    if (!b) { levels.replaceChildren(); return; }
    levels.replaceChildren(
      el('span', 'rooms-levels-name', b.name),
      ...[...b.levels].reverse().map((l) => el('button', {
        type: 'button', class: 'rooms-level', 'aria-pressed': String(l.id === state.levelId), title: l.name,
        'aria-label': l.name, dataset: { level: l.id }, on: { click: () => openLevel(b, l.id) },
      }, l.shortName ?? String(l.ordinal))),
      el('button', { type: 'button', class: 'rooms-level close-plan', 'aria-label': 'Close the floor plan', on: { click: closePlan } }, '✕'));
  }

  function closePlan() {
    state.building = null;
    state.levelId = null;
    renderLevels();
    map.invalidate();
  }

  // ---- Search ----
  let typed = 0;
  let searchTimer = 0;
  function onType() {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(runSearch, 120);
  }

  async function runSearch() {
    const text = search.value.trim();
    const n = ++typed;
    if (!text) { results.hidden = true; results.replaceChildren(); return; }
    let places;
    try {
      places = (await searchPlaces(text)).data.places;
    } catch (err) {
      if (n !== typed) return;
      results.hidden = false;
      results.replaceChildren(el('li', 'rooms-empty', err instanceof OfflineError
        ? 'Search needs a connection. Floor plans you opened before still work offline.'
        : 'Search is not available right now. Try again in a moment.'));
      return;
    }
    if (n !== typed) return;
    results.hidden = false;
    results.dataset.query = text;
    if (!places.length) {
      results.replaceChildren(el('li', 'rooms-empty', `Nothing matches “${text}”. Try a room number like JB-102, a building, or a person’s last name.`));
      return;
    }
    results.replaceChildren(...places.map((p) => el('li', null, el('button', {
      type: 'button', class: 'rooms-result', dataset: { place: p.id, kind: p.kind },
      on: { click: () => choose(p) },
    }, el('span', 'rooms-result-title', p.title), el('span', 'rooms-result-sub', [KIND_WORDS[p.kind], p.subtitle, campusName(p.venueId)].filter(Boolean).join(' · '))))));
  }

  const largestVenue = () => [...state.venues].sort((a, b) => b.buildings - a.buildings)[0] ?? null;

  /** Another campus's name, for a result that is not on the one shown. */
  const campusName = (id) => (id && id !== state.venue?.id ? state.venues.find((v) => v.id === id)?.name ?? null : null);

  function onSearchKey(/** @type {KeyboardEvent} */ e) {
    if (e.key === 'Enter') {
      e.preventDefault();
      /** @type {HTMLButtonElement|null} */ (results.querySelector('button'))?.click();
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      /** @type {HTMLButtonElement|null} */ (results.querySelector('button'))?.focus();
    }
  }

  function clearSearch() {
    search.value = '';
    results.hidden = true;
    results.replaceChildren();
  }

  /** A place chosen from the results or the map. */
  async function choose(place) {
    clearSearch();
    if (place.venueId && place.venueId !== state.venue?.id) await openVenue(place.venueId);
    await showPlace(place);
    record(placePath(place.id));
  }

  const venuePath = () => `/rooms/${encodeURIComponent(state.venue?.id ?? '')}`;
  const placePath = (id) => `${venuePath()}/place/${encodeURIComponent(id)}`;

  async function showPlace(place) {
    state.route = null;
    state.routeEnds = null;
    state.selected = place;
    if (place.levelId) {
      const b = buildingOfLevel(place.levelId);
      if (b) await openLevel(b, place.levelId);
      else if (state.building) closePlan();
    } else if (place.kind === 'building') {
      const b = state.venue?.buildings.find((x) => x.id === place.id);
      if (b) await openLevel(b);
    }
    if (place.position) focus(place.position, place.kind === 'building' ? 18 : 19);
    renderPlace(place);
    map.invalidate();
  }

  // ---- Cards ----
  function renderHome() {
    const v = state.venue;
    body.replaceChildren(v ? el('div', 'rooms-home',
      el('h2', 'rooms-title', v.name),
      el('p', 'muted', `${v.buildings.length} buildings. Search above, or tap a building for its floor plans.`),
      el('div', 'rooms-nearest', el('span', 'muted', 'Nearest to you:'),
        NEAREST.slice(0, 4).map(([kind, label]) => el('button', { type: 'button', class: 'chip', on: { click: () => routeToNearest(kind) } }, label))))
      : el('p', 'muted', 'No campus has indoor maps yet. An operator adds one with “waymark import imdf”.'));
  }

  async function renderPlace(place) {
    const rows = [
      el('p', 'rooms-kind', KIND_WORDS[place.kind] ?? ''),
      el('h2', { class: 'rooms-title', id: 'rooms-place-title' }, place.title),
      place.subtitle ? el('p', 'muted', place.subtitle) : null,
    ];
    const extra = el('div', 'rooms-person');
    const actions = el('div', 'rooms-actions',
      el('button', { type: 'button', class: 'dialog-button primary', id: 'rooms-directions', on: { click: () => askStart(place) } }, 'Directions'),
      el('a', { class: 'dialog-button', href: placePath(place.id), 'data-route': 'off', on: { click: (e) => { e.preventDefault(); share(placePath(place.id), place.title); } } }, 'Share'),
      el('button', { type: 'button', class: 'dialog-button', on: { click: backHome } }, 'Close'));
    body.replaceChildren(el('div', { class: 'rooms-place', 'aria-labelledby': 'rooms-place-title' }, rows, extra, actions));
    if (place.kind === 'person' && state.venue) {
      try {
        const p = (await getPerson(state.venue.id, place.id)).data;
        extra.replaceChildren(
          p.email ? el('p', null, el('a', { href: `mailto:${p.email}`, 'data-route': 'off' }, p.email)) : null,
          p.officeHours ? el('p', null, `Office hours: ${p.officeHours}`) : null,
          p.unitId ? null : el('p', 'rooms-warning', `Room ${p.room} is not on the floor plans, so Waymark cannot lead you there.`));
      } catch { /* the card stands without the extras */ }
    }
  }

  function backHome() {
    state.selected = null;
    state.route = null;
    state.start = null;
    renderHome();
    map.invalidate();
    record(venuePath());
  }

  async function share(path, title) {
    const url = new URL(path, location.origin).href;
    try {
      if (navigator.share) { await navigator.share({ title: `${title} · Waymark`, url }); return; }
      await navigator.clipboard.writeText(url);
      toast('Link copied.');
    } catch {
      toast(url, 6000);
    }
  }

  // ---- Directions ----
  /** Where the route starts: the device's position, a point the person taps, or a place. */
  function askStart(place) {
    const stepFree = el('input', { type: 'checkbox', id: 'rooms-step-free', checked: localStorage.getItem('waymark.rooms.stepFree') === '1' });
    const to = place.id;
    const go = (from) => {
      localStorage.setItem('waymark.rooms.stepFree', stepFree.checked ? '1' : '0');
      navigateRoute(from, to, stepFree.checked);
    };
    const fromSearch = el('input', { type: 'search', class: 'rooms-search', id: 'rooms-from', placeholder: 'Start at a room or building', 'aria-label': 'Start at a room or building' });
    const fromResults = el('ul', 'rooms-results');
    // Answers can arrive out of order while someone types; only the latest question's answer shows.
    let asked = 0;
    fromSearch.addEventListener('input', async () => {
      const text = fromSearch.value.trim();
      const n = ++asked;
      if (!text) { fromResults.replaceChildren(); delete fromResults.dataset.query; return; }
      try {
        const places = (await searchPlaces(text, state.venue?.id, 5)).data.places;
        if (n !== asked) return;
        fromResults.dataset.query = text;
        fromResults.replaceChildren(...(places.length ? places.map((p) => el('li', null, el('button', { type: 'button', class: 'rooms-result', on: { click: () => go(p.id) } },
          el('span', 'rooms-result-title', p.title), el('span', 'rooms-result-sub', p.subtitle ?? ''))))
          : [el('li', 'rooms-empty', `Nothing matches “${text}”. Try a room number or a building’s name.`)]));
      } catch {
        if (n !== asked) return;
        fromResults.replaceChildren(el('li', 'rooms-empty', 'Search needs a connection.'));
      }
    });
    body.replaceChildren(el('div', 'rooms-start',
      el('h2', 'rooms-title', `Directions to ${place.title}`),
      el('label', 'rooms-toggle', stepFree, el('span', null, 'Step-free (no stairs, steps or escalators)')),
      el('div', 'rooms-actions',
        'geolocation' in navigator ? el('button', { type: 'button', class: 'dialog-button primary', id: 'rooms-from-here', on: { click: () => fromDevice(go) } }, 'From my location') : null,
        el('button', { type: 'button', class: 'dialog-button', id: 'rooms-pick', on: { click: () => pickStart(go) } }, 'I am here: pick on the map')),
      fromSearch, fromResults,
      el('button', { type: 'button', class: 'dialog-button', on: { click: () => renderPlace(place) } }, 'Cancel')));
  }

  function fromDevice(go) {
    navigator.geolocation.getCurrentPosition(
      (pos) => go(herePart(pos.coords.latitude, pos.coords.longitude, levelAt(pos.coords.latitude, pos.coords.longitude))),
      () => { toast('Your location is not available. Tap where you are on the map instead.', 4000); pickStart(go, false); },
      { enableHighAccuracy: true, timeout: 8000, maximumAge: 60000 });
  }

  function pickStart(go, explain = true) {
    state.picking = true;
    if (explain) toast('Tap where you are. Open a building’s level first if you are inside.', 4000);
    pickDone = (lat, lon) => go(herePart(lat, lon, levelAt(lat, lon)));
  }
  /** @type {((lat: number, lon: number) => void)|null} */
  let pickDone = null;

  /** The open level, when the point is inside its building. */
  function levelAt(lat, lon) {
    const b = state.building;
    if (!b || !state.levelId) return null;
    return rings(b.footprint).some((ring) => inside(ring.map((q) => ({ x: q.lon, y: q.lat })), lon, lat)) ? state.levelId : null;
  }

  const herePart = (lat, lon, level) => `here@${Math.round(lat * 1e6)},${Math.round(lon * 1e6)}${level ? `,${level}` : ''}`;

  function navigateRoute(from, to, stepFree) {
    const path = `${venuePath()}/route/${encodeURIComponent(from)}/${encodeURIComponent(to)}${stepFree ? '/step-free' : ''}`;
    record(path);
    showRoute(from, to, stepFree);
  }

  function routeToNearest(kind) {
    const from = state.start ? herePart(state.start.lat, state.start.lon, state.start.levelId) : null;
    if (from) { navigateRoute(from, `nearest-${kind}`, false); return; }
    const go = (f) => navigateRoute(f, `nearest-${kind}`, localStorage.getItem('waymark.rooms.stepFree') === '1');
    if ('geolocation' in navigator) fromDevice(go); else pickStart(go);
  }

  async function showRoute(from, to, stepFree) {
    const params = { stepFree };
    const here = /^here@(-?\d+),(-?\d+)(?:,(.+))?$/.exec(from);
    if (here) {
      Object.assign(params, { fromLatitude: Number(here[1]) / 1e6, fromLongitude: Number(here[2]) / 1e6, fromLevel: here[3] });
      state.start = { lat: Number(here[1]) / 1e6, lon: Number(here[2]) / 1e6, levelId: here[3] ?? null };
    } else {
      Object.assign(params, { from });
      state.start = null;
    }
    if (to.startsWith('nearest-')) params.nearest = to.slice(8); else params.to = to;
    body.replaceChildren(el('p', { class: 'muted', role: 'status' }, 'Finding the way…'));
    let route;
    try {
      route = (await getRoute(state.venue.id, params)).data;
    } catch (err) {
      state.route = null;
      map.invalidate();
      const what = err instanceof ProblemError ? err.message : 'Directions need a connection. Try again when you are online.';
      body.replaceChildren(el('div', { class: 'rooms-route', role: 'alert' },
        el('h2', 'rooms-title', err instanceof ProblemError && err.kind === 'no-step-free-route' ? 'No step-free way there' : 'No directions'),
        el('p', null, what),
        el('div', 'rooms-actions',
          stepFree ? el('button', { type: 'button', class: 'dialog-button', on: { click: () => navigateRoute(from, to, false) } }, 'Show the way with stairs') : null,
          el('button', { type: 'button', class: 'dialog-button', on: { click: backHome } }, 'Close'))));
      return;
    }
    state.route = route;
    state.routeEnds = { from, to, stepFree };
    state.selected = null;
    const first = route.steps.find((s) => s.levelId) ?? null;
    await showStepLevel(first ?? route.steps[0]);
    fitRoute(route);
    renderRoute(route);
  }

  async function showStepLevel(step) {
    if (!step?.levelId) { if (state.building) closePlan(); return; }
    const b = buildingOfLevel(step.levelId);
    if (b) await openLevel(b, step.levelId);
  }

  function fitRoute(route) {
    const pts = route.steps.flatMap((s) => s.path);
    if (!pts.length) return;
    const lats = pts.map((p) => p.latitude);
    const lons = pts.map((p) => p.longitude);
    map.fitBounds({ south: Math.min(...lats), north: Math.max(...lats), west: Math.min(...lons), east: Math.max(...lons) },
      { padding: padding(), maxZoom: 19.5, animate: 300 });
  }

  function renderRoute(route) {
    const levelName = (id) => state.venue?.buildings.flatMap((b) => b.levels).find((l) => l.id === id)?.name ?? '';
    const list = el('ol', { class: 'rooms-steps', id: 'rooms-steps' }, route.steps.map((s, i) => el('li', null, el('button', {
      type: 'button', class: 'rooms-step', dataset: { kind: s.kind, step: String(i) },
      'aria-label': `${s.text}${s.levelId && s.kind !== 'arrive' ? `, ${levelName(s.levelId)}` : ''}`,
      on: { click: () => { showStepLevel(s); if (s.path.length) focus(s.path[0], Math.max(map.getView().zoom, 18.5)); } },
    }, el('span', 'rooms-step-text', inUnits(s.text)), s.metres > 0 ? el('span', 'rooms-step-sub', `${distance(s.metres)} · ${walkTime(s.seconds)}`) : null))));
    const ends = state.routeEnds;
    const path = ends ? `${venuePath()}/route/${encodeURIComponent(ends.from)}/${encodeURIComponent(ends.to)}${ends.stepFree ? '/step-free' : ''}` : venuePath();
    body.replaceChildren(el('div', 'rooms-route',
      el('h2', { class: 'rooms-title', id: 'rooms-route-title' }, `To ${route.destination}`),
      el('p', { class: 'rooms-summary', id: 'rooms-summary' }, `${walkTime(route.seconds)} · ${distance(route.metres)}${route.stepFree ? ' · step-free' : ''}`),
      list,
      el('div', 'rooms-actions',
        el('a', { class: 'dialog-button', href: path, 'data-route': 'off', on: { click: (e) => { e.preventDefault(); share(path, `Directions to ${route.destination}`); } } }, 'Share'),
        el('button', { type: 'button', class: 'dialog-button', on: { click: backHome } }, 'Done'))));
  }

  // ---- Layers and taps ----
  function toggleLayer(key, on) {
    state.layers = { ...state.layers, [key]: on };
    localStorage.setItem(LAYER_KEY, JSON.stringify(state.layers));
    map.invalidate();
  }

  map.on('tap', ({ x, y, hit }) => {
    if (!state.shown || !state.venue) return;
    if (state.picking) {
      state.picking = false;
      const at = map.unproject(x, y);
      const done = pickDone;
      pickDone = null;
      done?.(at.lat, at.lon);
      return;
    }
    if (hit?.layer === 'rooms-buildings' && hit.feature?.building && hit.feature.building.id !== state.building?.id) {
      openLevel(hit.feature.building);
      map.setView({ center: { lat: hit.feature.building.position.latitude, lon: hit.feature.building.position.longitude }, zoom: Math.max(map.getView().zoom, 18.5) }, { animate: 300 });
      return;
    }
    const f = hit?.feature?.feature;
    if ((hit?.layer === 'rooms-plan' || hit?.layer === 'rooms-pins') && f?.properties?.name && f.properties.category !== 'walkway') {
      getPlace(state.venue.id, f.id).then(({ data }) => { showPlace(data); record(placePath(data.id)); }).catch(() => {});
    }
  });

  // ---- Paths ----
  /** @param {string} path */
  async function show(path) {
    if (!state.shown) {
      // Parking keeps the map on its campus; a venue may be elsewhere.
      state.viewBefore = { view: map.getView(), bounds: map.getMaxBounds() };
      map.setMaxBounds(null);
    }
    state.shown = true;
    sheet.hidden = false;
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    // The campus named, else the one last shown, else the largest (a main campus before its satellites).
    const largest = largestVenue()?.id;
    let venueId = parts[1] ?? localStorage.getItem(VENUE_KEY) ?? largest;
    if (venueId && !state.venues.some((v) => v.id === venueId) && !parts[1]) venueId = largest;
    if (!venueId) { renderHome(); map.invalidate(); return; }
    if (!(await openVenue(venueId))) {
      toast('That campus has no indoor maps here.');
      record('/rooms', { replace: true });
      if (largestVenue()) await openVenue(largestVenue().id);
      return;
    }
    if (parts[2] === 'place' && parts[3]) {
      if (state.selected?.id === parts[3] && !state.route) return;
      try { await showPlace((await getPlace(venueId, parts[3])).data); } catch { toast('That place is not on this campus any more.'); backHome(); }
    } else if (parts[2] === 'route' && parts[3] && parts[4]) {
      const ends = state.routeEnds;
      const stepFree = parts[5] === 'step-free';
      if (ends && ends.from === parts[3] && ends.to === parts[4] && ends.stepFree === stepFree) return;
      await showRoute(parts[3], parts[4], stepFree);
    } else {
      state.selected = null;
      state.route = null;
      state.routeEnds = null;
      renderHome();
    }
    map.invalidate();
  }

  function hide() {
    if (!state.shown) return;
    state.shown = false;
    state.picking = false;
    sheet.hidden = true;
    if (state.viewBefore) {
      map.setMaxBounds(state.viewBefore.bounds);
      map.setView(state.viewBefore.view);
    }
    state.venue = null;
    map.invalidate();
  }

  return { ready, show, hide, state };
}

function readLayers() {
  try {
    const saved = JSON.parse(localStorage.getItem(LAYER_KEY) ?? 'null');
    if (saved && typeof saved === 'object') return saved;
  } catch { /* start with the defaults */ }
  return { restroom: true, elevator: true, service: true, bikes: false };
}
