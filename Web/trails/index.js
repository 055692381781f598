// Trails: Browse (search by name or town, suggested trails, favourites, every trail), the trail
// page with its General Information and Traversal sections and the seed's five buttons, and the
// trails on the map coloured by tier. Paths:
//   /trails                          Browse
//   /trails/<id>                     a trail's page
//   /trails/<id>/<info|contacts|safety|points|amenities>
//   /trails/<id>/forum               its community forum
//   /trails/<id>/forum/pin           the drop-pin map for a new post
//   /trails/<id>/hunt                its scavenger hunt (easy and moderate trails)
//   /trails/hikes, /trails/hikes/all  My hikes: the current hike and History; every hike, sorted
//   /trails/friends                  Friends: find people, requests, friends, location sharing
//   /trails/friends/<user id>        a friend and their hikes
//   /trails/messages                 the conversations; /new the People Picker
//   /trails/messages/<id>            a conversation; /invite and /remove its People Picker

import { el } from '../shell/dom.js';
import { toast } from '../shell/toast.js';
import { OfflineError, ProblemError, problemText } from '../shell/api.js';
import { signedIn, hasDevice, cachedMe } from '../accounts/session.js';
import { listTrails, getTrail, gpxURL, listFavourites, setFavourite, replaceTrailPicture } from './api.js';
import { addTrailLayers, viewBounds, TIER_COLOURS } from './layers.js';
import { profileChart } from './profile-chart.js';
import { weatherSection } from './weather.js';
import { commentsSection } from './comments.js';
import { forumScreen, dropPinScreen } from './forum.js';
import { keepForOffline } from './offline.js';
import { startHikes } from './hikes.js';
import { huntScreen, hasHunt } from './hunt.js';
import { friendsScreen } from './friends.js';
import { friendHikesScreen } from './friend-hikes.js';
import { startMessages } from './messages.js';
import { startFriendMap } from './friend-map.js';
import { length, height, away, percent, steps, DIFFICULTY, SHAPE, AMENITY, GUIDELINE_SECTIONS, POINT_KIND } from './format.js';
import { directionsURL } from '../shell/directions.js';

const PAGE = 20;
const FILTER_KEY = 'waymark.trails.features';
const FILTERS = [['waterfall', 'Waterfalls'], ['scenicOverlook', 'Scenic overlooks']];
const SCREENS = {
  info: 'Additional information', contacts: 'Emergency contacts', safety: 'Safety guidelines', points: 'Points of interest', amenities: 'Amenities',
};

/** @param {{map: any, go: (path: string, o?: any) => void}} o */
export function startTrails({ map, go }) {
  const state = {
    shown: false,
    /** Trails drawn on the map: the last "search this area", or the nearest to where Browse opened. */
    mapTrails: /** @type {any[]} */ ([]),
    open: /** @type {any} */ (null),
    favourites: /** @type {Set<string>} */ (new Set()),
    favouritesLoaded: false,
    /** The starred trails' summaries, the latest first. */
    favouriteList: /** @type {any[]} */ ([]),
    viewBefore: /** @type {any} */ (null),
    moved: false,
    /** The map's filter overlays: only trails with a point of each kind chosen (TRL-2). */
    features: /** @type {string[]} */ (JSON.parse(localStorage.getItem(FILTER_KEY) ?? '[]')),
    /** A forum post's pin shown on the map (TRL-5). */
    pin: /** @type {{latitude: number, longitude: number}|null} */ (null),
    /** The spot chosen on the drop-pin map for the post being written. */
    compose: /** @type {{trailId: string, pin: {latitude: number, longitude: number}}|null} */ (null),
    /** A hike's path on the map: the one being recorded, or one chosen in History (TRL-6). */
    hikePath: /** @type {number[][]|null} */ (null),
    /** Friends drawn on the map (TRL-9). @type {() => {id: string, x: number, y: number}[]} */
    friendsOnMap: () => [],
  };
  addTrailLayers(map, () => (state.shown ? { trails: state.mapTrails, open: state.open, pin: state.pin, hike: state.hikePath } : { trails: [], open: null, pin: null, hike: null }));
  /** A hike's path on the map, fitted into view when asked (with `around`, e.g. the trail). */
  function showPath(points, fitIt = false, around = undefined) {
    state.hikePath = points;
    map.invalidate();
    const box = [...(points ?? []), ...(around ?? [])];
    if (fitIt && box.length) {
      const lats = box.map((p) => p[0]), lons = box.map((p) => p[1]);
      fittedAt = performance.now();
      map.fitBounds({ south: Math.min(...lats), north: Math.max(...lats), west: Math.min(...lons), east: Math.max(...lons) }, { padding: padding(), maxZoom: 17, animate: 300 });
    }
  }
  const hikes = startHikes({ go, showPath });

  const messages = startMessages({ go });
  const friendMap = startFriendMap({ map, shown: () => state.shown, message: (personId) => messages.openDirect(personId) });
  state.friendsOnMap = friendMap.drawn;

  const body = el('div', { id: 'trails-body', class: 'trails-body' });
  const areaButton = el('button', { type: 'button', id: 'trails-search-area', class: 'trails-search-area', hidden: true,
    on: { click: searchThisArea } }, 'Search this area');
  const sheet = el('section', { id: 'trails', class: 'sheet trails-sheet', hidden: true, 'aria-label': 'Trails' }, el('div', 'sheet-body', body));
  const coordinates = el('output', { id: 'trails-coordinates', class: 'trails-coordinates', hidden: true, 'aria-live': 'polite' });
  // The drop-pin map's pin: fixed in the middle of the part of the map the sheet leaves visible.
  const dropPin = el('div', { id: 'trails-drop-pin', class: 'trails-drop-pin', hidden: true, 'aria-hidden': 'true' });
  let coordinatesTimer = 0;
  document.getElementById('app')?.append(sheet, areaButton, coordinates, dropPin);
  addEventListener('resize', () => { if (!dropPin.hidden) placeDropPin(); });

  // The person moved the map (not Trails fitting it to what it shows): offer to search there.
  let fittedAt = 0;
  map.on('moveend', () => {
    if (!state.shown || state.open || performance.now() - fittedAt < 800) return;
    state.moved = true;
    areaButton.hidden = false;
  });
  // A long press on a trail opens it; anywhere else it says where that is (TRL-2).
  map.on('longpress', ({ x, y, hit }) => {
    if (!state.shown) return;
    const id = hit?.feature?.trailId;
    if (id) { go(`/trails/${encodeURIComponent(id)}`); return; }
    const at = map.unproject(x, y);
    const text = `${at.lat.toFixed(5)}, ${at.lon.toFixed(5)}`;
    coordinates.textContent = text;
    coordinates.hidden = false;
    clearTimeout(coordinatesTimer);
    coordinatesTimer = setTimeout(() => { coordinates.hidden = true; }, 8000);
  });
  map.on('tap', ({ hit }) => {
    if (!state.shown) return;
    const id = hit?.feature?.trailId;
    if ((hit?.layer === 'trails-lines' || hit?.layer === 'trails-heads') && id && id !== state.open?.summary.id) go(`/trails/${encodeURIComponent(id)}`);
  });

  function padding() {
    const m = map.canvas.getBoundingClientRect();
    const s = sheet.getBoundingClientRect();
    if (innerWidth >= 760) return { top: 70, right: 60, bottom: 50, left: Math.max(50, s.right - m.left + 40) };
    return { top: 70, right: 40, bottom: Math.max(40, m.bottom - s.top + 30), left: 40 };
  }

  function fit() {
    fittedAt = performance.now();
    requestAnimationFrame(() => {
      fittedAt = performance.now();
      const b = viewBounds({ trails: state.mapTrails, open: state.open });
      if (b) map.fitBounds(b, { padding: padding(), maxZoom: 15, animate: 300 });
    });
  }

  /** The map's visible box, for "Search this area". */
  function visibleBox() {
    const { width, height: h } = map.size();
    const corners = [map.unproject(0, 0), map.unproject(width, 0), map.unproject(0, h), map.unproject(width, h)];
    const lats = corners.map((c) => c.lat);
    const lons = corners.map((c) => c.lon);
    return { south: Math.max(-90, Math.min(...lats)), north: Math.min(90, Math.max(...lats)), west: Math.max(-180, Math.min(...lons)), east: Math.min(180, Math.max(...lons)) };
  }

  async function searchThisArea() {
    areaButton.hidden = true;
    try {
      const { data } = await listTrails({ view: visibleBox(), lines: true, limit: 20, feature: state.features });
      state.mapTrails = data.trails;
      map.invalidate();
      renderAreaResults(data.trails, data.total);
    } catch (err) {
      toast(err instanceof OfflineError ? 'Searching the map needs a connection. Trails you opened before still read offline.' : 'Trails could not be searched just now. Try again in a moment.');
    }
  }

  // ---- Cards ----

  /** @param {any} t a TrailSummary */
  function card(t) {
    const figures = [length(t.lengthMetres), `${height(t.gainMetres)} up`, SHAPE[t.shape]];
    if (t.distanceMetres != null) figures.push(away(t.distanceMetres));
    return el('li', 'trail-card-item', el('a', { class: 'trail-card', href: `/trails/${encodeURIComponent(t.id)}`, dataset: { trail: t.id } },
      t.pictureURL ? el('img', { class: 'trail-card-picture', src: t.pictureURL, alt: '', loading: 'lazy', width: 96, height: 60 }) : el('span', 'trail-card-picture'),
      el('span', 'trail-card-text',
        el('span', 'trail-card-name', t.name),
        el('span', 'trail-card-area', t.area || ' '),
        el('span', 'trail-card-figures', tierChip(t.difficulty), ' ', figures.join(' · ')),
        t.huntingAlert ? el('span', { class: 'trail-card-hunting', title: t.huntingAlert }, '⚠ Hunting nearby in season') : null)));
  }

  const tierChip = (d) => el('span', { class: 'trail-tier', dataset: { tier: d } }, DIFFICULTY[d]);

  function cards(list) { return el('ul', 'trail-cards', list.map(card)); }

  function legend() {
    return el('p', { class: 'trails-legend', 'aria-label': 'Map colours' },
      ...['easy', 'moderate', 'hard'].map((d) => el('span', 'trails-legend-item', el('span', { class: 'trails-swatch', style: `background:${TIER_COLOURS[d]}` }), DIFFICULTY[d])));
  }

  // ---- Browse ----

  let browseSeq = 0;
  /** @param {{refit?: boolean}} [o] refit: fit the map to the suggestions (not when a filter changed) */
  async function renderBrowse({ refit = true } = {}) {
    const seq = ++browseSeq;
    state.open = null;
    const search = el('input', { id: 'trails-search', type: 'search', class: 'trails-search', placeholder: 'Trail name or town',
      autocomplete: 'off', 'aria-label': 'Search trails by name or town', on: { input: onType } });
    const results = el('div', { id: 'trails-results', 'aria-live': 'polite' });
    const suggested = el('section', { id: 'trails-suggested', class: 'trails-section' }, el('h3', null, 'Suggested trails'), el('p', 'trails-note', 'Loading…'));
    const favourites = el('section', { id: 'trails-favourites', class: 'trails-section', hidden: true });
    const all = el('section', { id: 'trails-all', class: 'trails-section' }, el('h3', null, 'All trails'));
    const filters = el('fieldset', { class: 'trails-filters', id: 'trails-filters' }, el('legend', null, 'Only trails with'),
      FILTERS.map(([key, label]) => el('label', 'trails-filter',
        el('input', { type: 'checkbox', checked: state.features.includes(key), dataset: { feature: key }, on: { change: (e) => {
          state.features = e.target.checked ? [...state.features, key] : state.features.filter((f) => f !== key);
          localStorage.setItem(FILTER_KEY, JSON.stringify(state.features));
          renderBrowse({ refit: false });
        } } }), el('span', null, label))));
    const unreadBadge = el('span', { class: 'badge', dataset: { unreadMessages: '' }, hidden: !messages.unread }, messages.unread ? String(messages.unread) : '');
    body.replaceChildren(el('h2', 'trails-title', 'Trails'),
      el('nav', { class: 'trail-shortcuts', 'aria-label': 'Your hikes and friends' },
        el('a', { class: 'acc-button', id: 'trails-my-hikes', href: '/trails/hikes' }, 'My hikes'),
        el('a', { class: 'acc-button', id: 'trails-friends', href: '/trails/friends' }, 'Friends'),
        el('a', { class: 'acc-button', id: 'trails-messages', href: '/trails/messages' }, 'Messages', unreadBadge)),
      search, filters, legend(), results, suggested, favourites, all);

    let timer = 0, typed = 0;
    function onType() {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        const text = search.value.trim();
        const n = ++typed;
        if (!text) { results.replaceChildren(); return; }
        try {
          const { data } = await listTrails({ q: text, limit: 20, lines: true, feature: state.features });
          if (n !== typed) return;
          // A town no trail is named after answers with the trails nearest to it.
          const nearTown = data.town && data.trails[0]?.distanceMetres != null;
          results.replaceChildren(data.trails.length
            ? el('section', 'trails-section', el('h3', null, nearTown ? `Near ${data.town.name}` : `Matching “${text}”`), cards(data.trails))
            : el('p', 'trails-empty', `No trail or town matches “${text}”. Try a trail’s name, like Castle Rock, or a town, like Big Bear Lake.`));
          if (data.trails.length) { state.mapTrails = data.trails; map.invalidate(); fit(); }
        } catch (err) {
          if (n === typed) results.replaceChildren(el('p', 'trails-empty', err instanceof OfflineError ? 'Search needs a connection.' : 'Search is not available right now. Try again in a moment.'));
        }
      }, 150);
    }

    // Suggested: the nearest easy and moderate trails to where the map is, not yet starred.
    const centre = map.getView().center;
    try {
      const [near, every] = await Promise.all([
        listTrails({ near: centre, difficulty: ['easy', 'moderate'], limit: 12, lines: true, feature: state.features }),
        listTrails({ limit: PAGE, feature: state.features }),
      ]);
      if (seq !== browseSeq) return;
      await loadFavourites();
      const picks = near.data.trails.filter((t) => !state.favourites.has(t.id)).slice(0, 6);
      suggested.replaceChildren(el('h3', null, 'Suggested trails'),
        picks.length ? cards(picks) : el('p', 'trails-note', state.features.length
          ? 'No trail near here has all the features chosen. Untick one, or move the map and search this area.'
          : 'Nothing new near here: search for a town, or move the map and search this area.'));
      state.mapTrails = near.data.trails;
      map.invalidate();
      if (refit && !state.moved) fit();
      renderAll(all, every.data.trails, every.data.total);
      renderFavourites(favourites);
    } catch (err) {
      if (seq !== browseSeq) return;
      suggested.replaceChildren(el('h3', null, 'Suggested trails'), el('p', 'trails-empty', err instanceof OfflineError
        ? 'Waymark is offline. Trails you opened or starred before still open from their links.'
        : 'Trails could not be loaded just now. Try again in a moment.'));
    }
  }

  function renderAll(section, first, total) {
    const list = cards(first);
    let shown = first.length;
    const more = el('button', { type: 'button', class: 'trails-more', hidden: shown >= total, on: { click: async () => {
      more.disabled = true;
      try {
        const { data } = await listTrails({ limit: PAGE, offset: shown, feature: state.features });
        list.append(...data.trails.map(card));
        shown += data.trails.length;
        more.hidden = shown >= data.total;
      } catch { toast('More trails could not be loaded. Try again in a moment.'); }
      more.disabled = false;
    } } }, 'Show more');
    section.replaceChildren(el('h3', null, `All trails (${total})`),
      total ? list : el('p', 'trails-empty', 'No trails yet. An operator adds them with “waymark import gpx” or in the API.'), more);
  }

  async function loadFavourites() {
    if (state.favouritesLoaded || !(signedIn() || hasDevice())) return;
    try {
      const data = await listFavourites();
      state.favourites = new Set(data.trails.map((t) => t.id));
      state.favouriteList = data.trails;
      state.favouritesLoaded = true;
      keepForOffline(data.trails.map((t) => t.id));
    } catch { /* favourites are shown when they can be read */ }
  }

  function renderFavourites(section) {
    const list = (state.favouriteList ?? []).filter((t) => state.favourites.has(t.id));
    section.hidden = !list.length;
    if (list.length) section.replaceChildren(el('h3', null, 'Your favourites'), cards(list));
  }

  function renderAreaResults(trails, total) {
    const results = body.querySelector('#trails-results');
    if (!results) return;
    results.replaceChildren(el('section', { class: 'trails-section', id: 'trails-area' },
      el('h3', null, trails.length ? `In this area (${trails.length}${total > trails.length ? ` of ${total}` : ''})` : 'In this area'),
      trails.length ? cards(trails) : el('p', 'trails-empty', 'No trails in this part of the map. Zoom out, or search for a town.')));
    results.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }

  // ---- A trail's page ----

  /** The middle of the map's visible part, in map pixels. */
  function visibleMiddle() {
    const p = padding();
    const { width, height: h } = map.size();
    return { x: p.left + (width - p.left - p.right) / 2, y: p.top + (h - p.top - p.bottom) / 2 };
  }

  /** Centres the visible part of the map on a point. @param {{latitude: number, longitude: number}} c */
  function centreOn(c, zoom = 15) {
    fittedAt = performance.now();
    const d = 0.0004;
    map.fitBounds({ south: c.latitude - d, north: c.latitude + d, west: c.longitude - d, east: c.longitude + d }, { padding: padding(), maxZoom: zoom, animate: 300 });
  }

  function placeDropPin() {
    const rect = map.canvas.getBoundingClientRect();
    const m = visibleMiddle();
    dropPin.style.left = `${rect.left + m.x}px`;
    dropPin.style.top = `${rect.top + m.y}px`;
  }

  function forumPages(page, sub2) {
    const t = page.summary;
    if (sub2 === 'pin') {
      if (!signedIn()) { go(`/trails/${encodeURIComponent(t.id)}/forum`, { replace: true }); return null; }
      const start = state.compose?.trailId === t.id ? state.compose.pin : t.trailhead;
      requestAnimationFrame(() => { centreOn(start); placeDropPin(); dropPin.hidden = false; });
      return dropPinScreen(page, { onCreate: () => {
        const m = visibleMiddle();
        const at = map.unproject(m.x, m.y);
        state.compose = { trailId: t.id, pin: { latitude: +at.lat.toFixed(6), longitude: +at.lon.toFixed(6) } };
        go(`/trails/${encodeURIComponent(t.id)}/forum`);
      } });
    }
    return forumScreen(page, {
      go,
      compose: () => (state.compose?.trailId === t.id ? state.compose.pin : null),
      clearCompose: () => { state.compose = null; },
      showPin: (pin) => { state.pin = pin; map.invalidate(); centreOn(pin, 16); toast(`The pin is shown on the map.`); },
    });
  }

  async function renderTrail(id, sub, sub2) {
    let page;
    let fromCache = false;
    try {
      const r = await getTrail(id);
      page = r.data;
      fromCache = r.fromCache;
    } catch (err) {
      body.replaceChildren(el('a', { class: 'trails-back', href: '/trails' }, '‹ Trails'),
        el('p', 'trails-empty', err instanceof ProblemError && err.status === 404
          ? 'This trail is not in the catalogue any more. Browse the trails for another.'
          : err instanceof OfflineError ? 'This trail has not been opened on this device before, and Waymark is offline.' : 'The trail could not be loaded. Try again in a moment.'));
      return;
    }
    const changed = state.open?.summary.id !== page.summary.id;
    state.open = page;
    areaButton.hidden = true;
    map.invalidate();
    dropPin.hidden = true;
    if (changed) { state.pin = null; fit(); }
    await loadFavourites();
    const screen = sub === 'forum' ? forumPages(page, sub2) : sub === 'hunt' ? (hasHunt(page) ? huntScreen(page) : trailPage(page, fromCache)) : sub ? subScreen(page, sub) : trailPage(page, fromCache);
    if (!screen) return;
    body.replaceChildren(screen);
    body.parentElement?.scrollTo({ top: 0 });
  }

  function trailPage(page, fromCache) {
    const t = page.summary;
    const m = page.measures;
    const star = el('button', { type: 'button', class: 'trail-star', id: 'trail-star', 'aria-pressed': String(state.favourites.has(t.id)),
      'aria-label': state.favourites.has(t.id) ? 'Remove from favourites' : 'Add to favourites', on: { click: () => toggleStar(t, star) } },
      state.favourites.has(t.id) ? '★' : '☆');
    const official = t.difficultyIsOfficial;
    const section = (title, ...rows) => el('section', 'trail-section', el('h3', null, title), el('dl', 'trail-facts', ...rows));
    const row = (label, value) => [el('dt', null, label), el('dd', null, value)];
    const chart = profileChart(page.profile, TIER_COLOURS[t.difficulty]);
    return el('article', { class: 'trail-page', dataset: { trail: t.id } },
      el('a', { class: 'trails-back', href: '/trails' }, '‹ Trails'),
      t.pictureURL ? el('img', { class: 'trail-picture', src: t.pictureURL, alt: `The trailhead of ${t.name}`, width: 640, height: 400 }) : null,
      el('div', 'trail-head', el('div', null, el('h2', 'trail-name', t.name), el('p', 'trail-area', [t.area, SHAPE[t.shape]].filter(Boolean).join(' · '))), star),
      fromCache ? el('p', 'trails-note', 'Offline: this is the page as it was last opened.') : null,
      t.huntingAlert ? el('p', { class: 'trail-hunting', role: 'note' }, el('strong', null, 'Hunting: '), t.huntingAlert) : null,
      page.description ? el('p', 'trail-description', page.description) : null,
      weatherSection(t.id),
      el('div', 'trail-actions',
        el('button', { type: 'button', class: 'acc-button primary trail-action', id: 'trail-start-hike', on: { click: () => hikes.start(page) } },
          hikes.current()?.trailId === t.id && !hikes.current()?.stoppedAt ? 'Hike in progress' : 'Start hike'),
        el('a', { class: 'acc-button trail-action', href: directionsURL(t.trailhead), target: '_blank', rel: 'noopener' }, 'Directions to the trailhead'),
        el('a', { class: 'acc-button trail-action', href: gpxURL(t.id), download: `${t.id}.gpx` }, 'Download GPX')),
      section('General information',
        ...row('Length', length(m.lengthMetres) === length(m.slopeLengthMetres) ? length(m.lengthMetres)
          : `${length(m.lengthMetres)} (${length(m.slopeLengthMetres)} along the slope)`),
        ...row('Difficulty', el('span', null, tierChip(t.difficulty), official ? ' (official grade)' : ` (from its effort rating, ${Math.round(m.effortRating)})`)),
        ...row('Steps', `about ${steps(m.steps)}`)),
      section('Traversal',
        ...row('Accessible', t.accessible ? 'Yes: firm, level path suitable for wheelchairs' : 'No'),
        ...row('Elevation', `${height(m.gainMetres)} up, ${height(m.lossMetres)} down`),
        ...(m.lowestMetres != null ? row('Lowest and highest', `${height(m.lowestMetres)} to ${height(m.highestMetres)}`) : []),
        ...row('Grade', `${percent(m.averageGradePercent)} on average, ${percent(m.steepestGradePercent)} at the steepest`)),
      chart ? el('figure', 'trail-chart', chart, el('figcaption', null, 'Elevation along the trail')) : null,
      el('nav', { class: 'trail-buttons', 'aria-label': 'More about this trail' },
        ...Object.entries(SCREENS).map(([key, title]) => el('a', { class: 'trail-button', href: `/trails/${encodeURIComponent(t.id)}/${key}` }, title, el('span', { 'aria-hidden': 'true' }, '›'))),
        el('a', { class: 'trail-button', id: 'trail-forum-link', href: `/trails/${encodeURIComponent(t.id)}/forum` }, 'Community forum', el('span', { 'aria-hidden': 'true' }, '›')),
        hasHunt(page) ? el('a', { class: 'trail-button', id: 'trail-hunt-link', href: `/trails/${encodeURIComponent(t.id)}/hunt` }, 'Scavenger hunt', el('span', { 'aria-hidden': 'true' }, '›')) : null),
      commentsSection(t, page.timeZone),
      cachedMe()?.isOperator ? operatorPicture(t) : null);
  }

  /** Operators replace the trailhead picture from the page (TRL-1): PNG, JPEG or WebP, checked by the server. */
  function operatorPicture(t) {
    const input = el('input', { type: 'file', id: 'trail-picture-file', accept: 'image/png,image/jpeg,image/webp', 'aria-label': 'New trailhead picture' });
    input.addEventListener('change', async () => {
      const file = input.files?.[0];
      if (!file) return;
      try {
        await replaceTrailPicture(t.id, file);
        toast('The trailhead picture is replaced.');
        await renderTrail(t.id);
      } catch (err) {
        toast(err instanceof OfflineError ? 'Uploading needs a connection.' : problemText(err));
      }
      input.value = '';
    });
    return el('section', { class: 'trail-operator', 'aria-label': 'For operators' }, el('strong', null, 'Operator: '), 'replace the trailhead picture', input);
  }

  async function toggleStar(t, button) {
    const on = !state.favourites.has(t.id);
    button.disabled = true;
    try {
      await setFavourite(t.id, on);
      if (on) {
        state.favourites.add(t.id);
        state.favouriteList = [t, ...(state.favouriteList ?? []).filter((f) => f.id !== t.id)];
        keepForOffline([t.id]);
      }
      else state.favourites.delete(t.id);
      button.setAttribute('aria-pressed', String(on));
      button.setAttribute('aria-label', on ? 'Remove from favourites' : 'Add to favourites');
      button.textContent = on ? '★' : '☆';
      toast(on ? `${t.name} is in your favourites.` : `${t.name} is no longer a favourite.`);
    } catch (err) {
      toast(err instanceof OfflineError ? 'Starring needs a connection. Try again when you are online.' : 'The star could not be saved. Try again in a moment.');
    }
    button.disabled = false;
  }

  function subScreen(page, key) {
    const t = page.summary;
    const back = el('a', { class: 'trails-back', href: `/trails/${encodeURIComponent(t.id)}` }, `‹ ${t.name}`);
    const title = el('h2', 'trails-title', SCREENS[key]);
    const empty = (text) => el('p', 'trails-empty', text);
    let content;
    if (key === 'info') {
      const i = page.info;
      const rows = [['Admission', i.admission], ['Other fees', i.additionalFees], ['Parking', i.parking]].filter(([, v]) => v);
      content = el('div', null,
        rows.length ? el('dl', 'trail-facts', ...rows.flatMap(([k, v]) => [el('dt', null, k), el('dd', null, v)])) : empty('No fees or parking rules are known for this trail.'),
        el('h3', null, 'Hours by season'),
        i.seasonalHours.length ? el('dl', 'trail-facts', ...i.seasonalHours.flatMap((h) => [el('dt', null, h.season), el('dd', null, h.hours)])) : empty('No opening hours are known: check with the rangers before you go.'));
    } else if (key === 'contacts') {
      content = page.contacts.length ? el('ul', 'trail-list', page.contacts.map((c) => el('li', 'trail-contact',
        el('strong', null, c.name), el('span', null, ...c.phones.flatMap((p, i) => [i ? ', ' : '', el('a', { href: `tel:${p.replace(/[^0-9+]/g, '')}` }, p)])))))
        : empty('No ranger contacts are known for this trail. In an emergency call 911.');
    } else if (key === 'safety') {
      content = el('div', null, ...GUIDELINE_SECTIONS.map(([kind, heading]) => {
        const items = page.guidelines.filter((g) => g.kind === kind);
        return el('section', 'trail-section', el('h3', null, heading), items.length ? el('ul', 'trail-list', items.map((g) => el('li', 'trail-guideline',
          g.pictureURL ? el('img', { src: g.pictureURL, alt: '', width: 72, height: 72, loading: 'lazy' }) : null,
          el('div', null, el('strong', null, g.name), el('p', null, g.description),
            g.warningSigns ? el('p', 'trail-signs', el('em', null, 'Warning signs: '), g.warningSigns) : null)))) : empty('Nothing listed.'));
      }));
    } else if (key === 'points') {
      content = page.points.length ? el('ul', 'trail-list', page.points.map((p) => el('li', 'trail-guideline',
        p.pictureURL ? el('img', { src: p.pictureURL, alt: '', width: 72, height: 72, loading: 'lazy' }) : null,
        el('div', null, el('strong', null, p.name), el('span', 'trail-kind', POINT_KIND[p.kind]), p.history ? el('p', null, p.history) : null))))
        : empty('No points of interest are listed for this trail yet.');
    } else {
      content = page.amenities.length ? el('ul', 'trail-amenities', page.amenities.map((a) => el('li', null, AMENITY[a] ?? a)))
        : empty('No amenities: bring what you need, including water.');
    }
    return el('article', { class: 'trail-page', dataset: { trail: t.id, screen: key } }, back, title, content);
  }

  // ---- Paths ----

  /** @param {string} path */
  async function show(path) {
    if (!state.shown) {
      state.viewBefore = { view: map.getView(), bounds: map.getMaxBounds() };
      map.setMaxBounds(null);
      state.moved = false;
    }
    state.shown = true;
    sheet.hidden = false;
    let parts;
    try { parts = path.split('/').filter(Boolean).map(decodeURIComponent); } catch { parts = ['trails']; }
    const [, id, sub, sub2] = parts;
    if (id === 'friends' || id === 'messages') {
      const screen = id === 'friends'
        ? (parts.length === 2 ? friendsScreen({ go, message: messages.openDirect, sharing: friendMap })
          : parts.length === 3 ? friendHikesScreen(sub, { message: messages.openDirect, showPath }) : null)
        : parts.length === 2 ? messages.listScreen()
          : parts.length === 3 ? (sub === 'new' ? messages.pickerScreen('new') : messages.threadScreen(sub))
            : parts.length === 4 && (sub2 === 'invite' || sub2 === 'remove') ? messages.pickerScreen(sub2, sub) : null;
      if (!screen) { go(`/trails/${id}`, { replace: true }); return; }
      state.open = null;
      areaButton.hidden = true;
      dropPin.hidden = true;
      body.replaceChildren(screen);
      friendMap.refresh();
      map.invalidate();
      return;
    }
    messages.leave();
    friendMap.refresh();
    if (id === 'hikes' && parts.length <= 3 && (!sub || sub === 'all')) {
      state.open = null;
      areaButton.hidden = true;
      dropPin.hidden = true;
      body.replaceChildren(hikes.screen({ all: sub === 'all' }));
      map.invalidate();
      return;
    }
    const forum = sub === 'forum' && (parts.length === 3 || (parts.length === 4 && sub2 === 'pin'));
    if (id && (forum || ((!sub || SCREENS[sub] || sub === 'hunt') && parts.length <= 3))) await renderTrail(id, sub, sub2);
    else {
      if (id) { go('/trails', { replace: true }); return; }
      await renderBrowse();
    }
    map.invalidate();
  }

  function hide() {
    messages.leave();
    if (!state.shown) return;
    state.shown = false;
    sheet.hidden = true;
    areaButton.hidden = true;
    coordinates.hidden = true;
    dropPin.hidden = true;
    state.open = null;
    state.pin = null;
    if (state.viewBefore) { map.setMaxBounds(state.viewBefore.bounds); map.setView(state.viewBefore.view); }
    map.invalidate();
  }

  return { show, hide, state };
}
