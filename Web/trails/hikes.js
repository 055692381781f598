// Recording a hike and the hike history (TRL-6, Trailz 3.2.3.2–3.2.3.7). Start on a trail's page
// begins a recording: positions from the browser, the Current Hike card with a running
// stopwatch, distance, speed, moving beside total time, steps, calories (when height, weight and
// year of birth are told), the position's accuracy and progress along the trail, and the path
// drawn live. The recording is kept in this browser after every fix, so a reload, a closed tab or
// no network loses nothing. Stop shows the summary and asks for stars (which open Leave Comment
// with them filled in); Save sends it, through the outbox when offline. History lists ten, newest
// first, then all with a sort; a hike's picture shows its path on the map; GPX; delete.

import { el } from '../shell/dom.js';
import { toast } from '../shell/toast.js';
import { choose, confirm } from '../shell/dialog.js';
import { OfflineError, problemText, newKey } from '../shell/api.js';
import { writes, onChange, onSent } from '../accounts/outbox.js';
import { hikeStatistics, distance } from './hike-stats.js';
import { listHikes, getHike, deleteHike, hikeGPX, getHikerBody, putHikerBody, saveHike } from './api.js';
import { walked, height, speed, stopwatch, DIFFICULTY, placeDates } from './format.js';
import { placePicture } from './picture.js';
import { keepCopy, savedCopy } from '../shell/saved-copies.js';
import { TIER_COLOURS } from './layers.js';
import { currentHike, keepHike as keep } from './hike-record.js';

const BODY_KEY = 'waymark.trails.hiker-body';
/** Comment stars chosen at the end of a hike, for the trail's Leave Comment form. */
export const STARS_KEY = 'waymark.trails.comment-stars';

/** @typedef {import('./hike-record.js').Recording} Recording */

/** What the person told for steps and calories, kept here too so the card works offline. */
function savedBody() {
  try { return JSON.parse(localStorage.getItem(BODY_KEY) ?? '{}'); } catch { return {}; }
}
function bodyForFigures() {
  const b = savedBody();
  return { heightCentimetres: b.heightCentimetres ?? null, weightKilograms: b.weightKilograms ?? null,
    ageYears: b.birthYear ? new Date().getFullYear() - b.birthYear : null };
}

/**
 * @param {{go: (path: string) => void, showPath: (points: number[][]|null, fit?: boolean, around?: number[][]) => void}} o
 */
export function startHikes(o) {
  let watchId = /** @type {number|null} */ (null);
  let ticker = 0;
  /** Redraws the screen shown, if it is the hikes screen; reads the history again. */
  let redraw = () => {};
  let reloadHistory = () => {};

  onChange(() => redraw());
  onSent((w) => { if (w.kind === 'hike') { redraw(); reloadHistory(); } });

  function watch() {
    const r = currentHike();
    if (!r || r.stoppedAt || watchId !== null || !('geolocation' in navigator)) return;
    watchId = navigator.geolocation.watchPosition((pos) => {
      const rec = currentHike();
      if (!rec || rec.stoppedAt) return;
      const c = pos.coords;
      // A position the browser had before Start counts from the start.
      const t = Math.max(rec.startedAt, pos.timestamp || Date.now());
      if (rec.fixes.length && t <= rec.fixes[rec.fixes.length - 1].t) return;
      rec.fixes.push({ t, lat: c.latitude, lon: c.longitude, acc: c.accuracy, ele: c.altitude });
      rec.lastAccuracy = c.accuracy;
      keep(rec);
      o.showPath(rec.fixes.map((f) => [f.lat, f.lon]));
      redraw();
    }, (err) => {
      if (err.code === err.PERMISSION_DENIED) toast('Waymark may not see where you are, so the hike cannot be drawn. Allow location for this site and start again.');
    }, { enableHighAccuracy: true, maximumAge: 0, timeout: 60_000 });
  }

  function unwatch() {
    if (watchId !== null) navigator.geolocation.clearWatch(watchId);
    watchId = null;
  }

  /** Start on a trail's page. @param {any} page */
  async function start(page) {
    const existing = currentHike();
    if (existing && existing.trailId !== page.summary.id) {
      const r = await choose({ title: 'A hike is being recorded', name: 'hike-replace',
        message: `You are recording a hike on ${existing.trailName}. Stop and save it first, or throw it away to start here.`,
        actions: [{ id: 'open', label: 'Open it', kind: 'primary' }, { id: 'discard', label: 'Throw it away', kind: 'danger' }, { id: 'cancel', label: 'Cancel' }] });
      if (r === 'open') { o.go('/trails/hikes'); return; }
      if (r !== 'discard') return;
      unwatch();
    }
    if (!existing || existing.trailId !== page.summary.id) {
      keep({ id: newKey(), trailId: page.summary.id, trailName: page.summary.name, difficulty: page.summary.difficulty, timeZone: page.timeZone,
        path: page.path, lengthMetres: page.measures.lengthMetres, startedAt: Date.now(), stoppedAt: null, fixes: [], lastAccuracy: null });
    }
    watch();
    o.go('/trails/hikes');
  }

  /** The Current Hike card. @param {Recording} r */
  function card(r) {
    const end = r.stoppedAt ?? Date.now();
    const s = hikeStatistics(r.fixes, r.startedAt, end, bodyForFigures());
    const colour = TIER_COLOURS[r.difficulty] ?? '#2e9d44';
    const last = r.fixes[r.fixes.length - 1];
    const progress = last && r.path.length ? alongTrail(r.path, last) : null;
    const figure = (label, value, id) => el('li', 'hike-figure', el('span', null, label), el('strong', { id }, value));
    const figures = el('ul', 'hike-figures',
      figure('Distance', walked(s.distanceMetres), 'hike-distance'),
      figure(r.stoppedAt ? 'Average speed' : 'Speed', speed(r.stoppedAt ? s.averageSpeed : (s.currentSpeed ?? 0)), 'hike-speed'),
      figure('Moving time', stopwatch(s.movingSeconds), 'hike-moving'),
      figure('Steps', new Intl.NumberFormat().format(s.steps), 'hike-steps'),
      s.calories != null ? figure('Calories', `${Math.round(s.calories)} kcal`, 'hike-calories') : null,
      figure('Climbed', height(s.gainMetres), 'hike-gain'));
    const status = r.stoppedAt ? null : el('p', { class: 'trails-note', id: 'hike-signal' },
      !last ? 'Waiting for your position…'
        : `Position ±${height(r.lastAccuracy ?? last.acc)}${progress != null ? ` · ${Math.round(progress * 100)}% along ${r.trailName}` : ''}`);
    const caloriesHint = s.calories == null ? el('p', 'trails-note', 'Tell your height, weight and year of birth below to see calories.') : null;
    const actions = r.stoppedAt
      ? el('p', 'trail-comment-actions',
        el('button', { type: 'button', class: 'acc-button primary', id: 'hike-save', on: { click: () => save(r) } }, 'Save'),
        el('button', { type: 'button', class: 'acc-button', id: 'hike-discard', on: { click: () => discard() } }, 'Throw away'))
      : el('p', 'trail-comment-actions',
        el('button', { type: 'button', class: 'acc-button danger', id: 'hike-stop', on: { click: () => stop() } }, 'Stop'));
    const picture = r.fixes.length > 1
      ? el('button', { type: 'button', class: 'trail-pin-button', 'aria-label': 'Show the path on the map', on: { click: () => o.showPath(r.fixes.map((f) => [f.lat, f.lon]), true) } },
        pathPicture(r.path, r.fixes.map((f) => [f.lat, f.lon]), colour))
      : null;
    return el('section', { class: 'hike-card', id: 'hike-current', dataset: { state: r.stoppedAt ? 'stopped' : 'recording' } },
      el('h3', null, r.stoppedAt ? `Your hike on ${r.trailName}` : `Recording: ${r.trailName}`),
      el('p', { class: 'hike-stopwatch', id: 'hike-stopwatch', role: 'timer', 'aria-label': 'Total time' }, stopwatch(s.elapsedSeconds)),
      figures, status, caloriesHint, picture, actions);
  }

  async function stop() {
    const r = currentHike();
    if (!r) return;
    r.stoppedAt = Date.now();
    keep(r);
    unwatch();
    redraw();
    if (r.fixes.length) o.showPath(r.fixes.map((f) => [f.lat, f.lon]), true, r.path);
    const stars = await choose({ title: `How was ${r.trailName}?`, name: 'hike-stars', message: 'Rate the trail: your stars open a comment for other hikers.',
      actions: [1, 2, 3, 4, 5].map((n) => ({ id: String(n), label: '★'.repeat(n) })).concat([{ id: 'later', label: 'Not now' }]) });
    if (stars && stars !== 'later') {
      sessionStorage.setItem(STARS_KEY, JSON.stringify({ trailId: r.trailId, stars: Number(stars) }));
      toast('Save your hike from My hikes when you are done.');
      o.go(`/trails/${encodeURIComponent(r.trailId)}`);
    }
  }

  async function save(r) {
    const endedAt = r.stoppedAt ?? Date.now();
    try {
      const out = await saveHike({ id: r.id, trailId: r.trailId, trailName: r.trailName, startedAt: r.startedAt, endedAt, fixes: r.fixes });
      keep(null);
      toast(out.sent ? 'Saved to your history.' : 'You are offline: the hike is saved to your history when Waymark can be reached.');
      redraw();
      if (out.sent) reloadHistory();
    } catch (err) { toast(problemText(err)); }
  }

  async function discard() {
    if (!(await confirm({ title: 'Throw this hike away?', message: 'Its path and figures are lost.', confirm: 'Throw away', danger: true }))) return;
    unwatch();
    keep(null);
    o.showPath(null);
    redraw();
  }

  // ---- My hikes: the current hike, History, the body figures ----

  /** @param {{all?: boolean, sort?: string}} opts */
  function screen(opts = {}) {
    const root = el('article', { class: 'trail-page', dataset: { screen: 'hikes' } });
    const currentBox = el('div');
    const waitingBox = el('div', { id: 'hike-waiting' });
    const history = el('section', { class: 'trails-section', id: 'hike-history' }, el('p', 'trails-note', 'Loading your hikes…'));
    let sort = opts.sort ?? 'date';
    /** The trails' region, where History's dates are told. */
    let zone = /** @type {string|undefined} */ (undefined);

    function drawCurrent() {
      const r = currentHike();
      currentBox.replaceChildren(r ? card(r) : el('p', 'trails-empty', 'No hike is being recorded. Open a trail and choose Start hike.'));
      const queued = writes().filter((w) => w.kind === 'hike');
      waitingBox.replaceChildren(...queued.map((w) => el('p', { class: `trail-waiting ${w.state}` },
        w.state === 'failed' ? `${w.label} was not saved: ${w.error ?? 'the server refused it'}.` : `${w.label}: waiting to be saved when Waymark can be reached.`)));
    }

    async function loadHistory() {
      let page, savedAt = null;
      const copyName = `hikes.${sort}.${opts.all ? 'all' : 'first'}`;
      try {
        page = await listHikes(/** @type {any} */ (sort), opts.all ? 100 : 10);
        keepCopy(copyName, page);
      } catch (err) {
        const copy = savedCopy(copyName);
        if (!(err instanceof OfflineError) || !copy) {
          history.replaceChildren(el('p', 'trails-empty', err instanceof OfflineError ? 'You are offline and this browser has no copy of your history yet.' : problemText(err)));
          return;
        }
        ({ value: page, savedAt } = copy);
      }
      const sorter = opts.all ? el('label', 'hike-sort', 'Sort by ', el('select', { id: 'hike-sort', on: { change: (e) => { sort = e.target.value; loadHistory(); } } },
        [['date', 'Date'], ['trailName', 'Trail name'], ['difficulty', 'Difficulty'], ['area', 'Area']].map(([v, label]) => el('option', { value: v, selected: v === sort }, label)))) : null;
      const more = !opts.all && page.total > page.hikes.length
        ? el('a', { class: 'acc-button', id: 'hike-see-more', href: '/trails/hikes/all' }, 'See more') : null;
      zone = page.timeZone;
      const age = savedAt ? el('p', { class: 'trails-note', id: 'hike-history-age' }, `You are offline: your history as of ${placeDates(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(savedAt))}.`) : null;
      history.replaceChildren(...[el('h3', null, opts.all ? 'All your hikes' : 'History'), age, sorter,
        page.hikes.length ? el('ul', { class: 'hike-list', id: 'hike-list' }, page.hikes.map(historyCard))
          : el('p', 'trails-empty', 'No hikes yet. Open a trail, choose Start hike, and your walk is kept here when you save it.'), more].filter(Boolean));
    }

    function historyCard(h) {
      const when = placeDates(zone, { dateStyle: 'medium', timeStyle: 'short' });
      const show = el('button', { type: 'button', class: 'link-button', on: { click: async () => {
        try { const full = await getHike(h.id); o.showPath(full.fixes.map((f) => [f[1], f[2]]), true); } catch (err) { toast(problemText(err)); }
      } } }, 'Show on the map');
      const gpx = el('button', { type: 'button', class: 'link-button', on: { click: async () => {
        try {
          const blob = await hikeGPX(h.id);
          const a = el('a', { href: URL.createObjectURL(blob), download: `hike-${h.trailName.replace(/[^A-Za-z0-9]+/g, '-')}.gpx` });
          a.click();
          setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
        } catch (err) { toast(problemText(err)); }
      } } }, 'GPX');
      const del = el('button', { type: 'button', class: 'link-button', on: { click: async () => {
        if (!(await confirm({ title: 'Delete this hike?', message: `${h.trailName}, ${when.format(new Date(h.startedAt))}.`, confirm: 'Delete', danger: true }))) return;
        try { await deleteHike(h.id); loadHistory(); } catch (err) { toast(problemText(err)); }
      } } }, 'Delete');
      return el('li', { class: 'hike-item', dataset: { hike: h.id } }, ...hikeFacts(h, zone), el('p', 'trail-comment-actions', show, gpx, del));
    }

    function bodyForm() {
      const b = savedBody();
      const num = (id, label, value, attrs) => el('label', 'hike-body-field', label, el('input', { id, type: 'number', inputmode: 'decimal', value: value ?? '', ...attrs }));
      const form = el('form', { class: 'hike-body', id: 'hike-body', on: { submit: async (e) => {
        e.preventDefault();
        const read = (id) => { const v = /** @type {HTMLInputElement} */ (form.querySelector(`#${id}`)).value; return v === '' ? undefined : Number(v); };
        const next = { heightCentimetres: read('hike-height'), weightKilograms: read('hike-weight'), birthYear: read('hike-born') };
        try {
          const saved = await putHikerBody(next);
          localStorage.setItem(BODY_KEY, JSON.stringify(saved));
          toast('Saved: steps and calories use it from now on.');
          drawCurrent();
        } catch (err) { toast(err instanceof OfflineError ? 'Saving needs a connection.' : problemText(err)); }
      } } },
      el('h3', null, 'For steps and calories'),
      el('p', 'trails-note', 'Kept with your account and used only for your own figures.'),
      el('div', 'hike-body-fields',
        num('hike-height', 'Height (cm)', b.heightCentimetres, { min: 50, max: 250, step: 1 }),
        num('hike-weight', 'Weight (kg)', b.weightKilograms, { min: 20, max: 350, step: 0.1 }),
        num('hike-born', 'Year of birth', b.birthYear, { min: 1900, max: new Date().getFullYear() - 5, step: 1 })),
      el('button', { type: 'submit', class: 'acc-button' }, 'Save'));
      return form;
    }

    root.append(el('a', { class: 'trails-back', href: opts.all ? '/trails/hikes' : '/trails' }, opts.all ? '‹ My hikes' : '‹ Trails'),
      el('h2', 'trails-title', opts.all ? 'All your hikes' : 'My hikes'),
      ...(opts.all ? [history] : [currentBox, waitingBox, history, bodyForm()]));
    redraw = () => { if (root.isConnected && !opts.all) drawCurrent(); };
    reloadHistory = () => { if (root.isConnected) loadHistory(); };
    if (!opts.all) drawCurrent();
    loadHistory();
    // The body figures told on another device.
    getHikerBody().then((b) => { localStorage.setItem(BODY_KEY, JSON.stringify(b)); }).catch(() => {});
    clearInterval(ticker);
    ticker = setInterval(() => { if (!root.isConnected) { clearInterval(ticker); return; } if (currentHike() && !currentHike()?.stoppedAt) drawCurrent(); }, 1000);
    // The map shows the walk so far, or the trail about to be walked.
    const r = currentHike();
    if (r && !opts.all) o.showPath(r.fixes.length ? r.fixes.map((f) => [f.lat, f.lon]) : null, true, r.path);
    return root;
  }

  // A recording survives a reload: carry on watching.
  if (currentHike() && !currentHike()?.stoppedAt) watch();

  return { start, screen, current: currentHike };
}

/**
 * What a saved hike says in a list: the trail and its tier, when (in the trails' region), and
 * the figures. @param {any} h a hike's summary @param {string|undefined} zone
 */
export function hikeFacts(h, zone) {
  const when = placeDates(zone, { dateStyle: 'medium', timeStyle: 'short' });
  return [
    el('p', 'trail-comment-head', el('strong', null, h.trailName), ' ', el('span', { class: 'trail-tier', dataset: { tier: h.difficulty } }, DIFFICULTY[h.difficulty])),
    el('p', 'trails-note', when.format(new Date(h.startedAt))),
    el('p', null, [stopwatch(h.elapsedSeconds), walked(h.distanceMetres), speed(h.averageSpeed), `${new Intl.NumberFormat().format(h.steps)} steps`,
      h.calories != null ? `${Math.round(h.calories)} kcal` : null].filter(Boolean).join(' · ')),
  ];
}

/** How far along the trail's drawn path the nearest point to `p` is, 0…1. */
function alongTrail(path, p) {
  let best = Infinity, bestAt = 0, walked = 0;
  const total = path.reduce((s, q, i) => (i ? s + distance({ lat: path[i - 1][0], lon: path[i - 1][1] }, { lat: q[0], lon: q[1] }) : 0), 0);
  for (let i = 0; i < path.length; i++) {
    if (i) walked += distance({ lat: path[i - 1][0], lon: path[i - 1][1] }, { lat: path[i][0], lon: path[i][1] });
    const d = distance({ lat: path[i][0], lon: path[i][1] }, p);
    if (d < best) { best = d; bestAt = walked; }
  }
  return total > 0 && best < 200 ? bestAt / total : null;
}

/** The trail in its colour and the walked path over it in blue. */
function pathPicture(trailPath, walked, colour) {
  return placePicture({ lines: [{ points: trailPath, colour }, { points: walked, colour: '#1a73e8', width: 2.5 }] });
}
