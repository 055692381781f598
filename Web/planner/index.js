// The Plan (PLN-1…6): the day planned around travel, the week, an event with the ways to get
// there, the event form, calendars and how the person travels; the day's events and trips on
// the shared map. One sheet beside the map (below it on a phone) shows one screen at a time,
// and every screen is a path a person may share or come back to:
//   /plan                                today
//   /plan/day/<YYYY-MM-DD>               a day, earlier ones too
//   /plan/week[/<YYYY-MM-DD>]            the week holding that day
//   /plan/event/<id>/<day>[/edit]        an event on the day it was due, or the form to change it
//   /plan/new[/<day>]                    a new event
//   /plan/calendars[/new|/<id>]          calendars, a new one, or one to rename, recolour, delete
//   /plan/travel                         travel preferences

import { el } from '../shell/dom.js';
import { go } from '../shell/router.js';
import { onSessionChange } from '../accounts/session.js';
import { listCalendars } from './api.js';
import { addPlanLayers, viewBounds, NOTHING } from './layers.js';
import { warningBanner } from './warnings.js';
import { dayView } from './day-view.js';
import { weekView } from './week-view.js';
import { eventView } from './event-view.js';
import { eventForm } from './event-form.js';
import { calendarsView } from './calendars-view.js';
import { calendarEditor } from './calendar-editor.js';
import { preferencesView } from './preferences-view.js';
import { isDay, todayIn } from './wall-time.js';

/**
 * What a screen is given to work with.
 * @typedef {object} PlanContext
 * @property {(path: string, o?: {replace?: boolean}) => void} go shows another screen, as a link would
 * @property {() => boolean} alive whether the screen is still the one shown (answers that come later are dropped)
 * @property {(fresh?: boolean) => Promise<{calendars: any[], defaultCalendarId: string}>} calendars the person's calendars
 * @property {(calendarId: string) => any} calendar one of them, as last read (null when unknown)
 * @property {() => void} calendarsChanged the next read asks the server again
 * @property {(view: import('./layers.js').MapView, o?: {fit?: boolean}) => void} draw what the map shows
 * @property {(done: (at: {lat: number, lon: number}) => void) => void} pick lets the person tap a point on the map
 * @property {(warnings: any[]) => void} warn shows a change's warnings at once
 */

/** Screens that fill the sheet on a phone: forms need the room more than the map does. */
const TALL = new Set(['form', 'calendar', 'preferences']);
const TABS = [['day', 'Day', '/plan'], ['week', 'Week', '/plan/week'], ['calendars', 'Calendars', '/plan/calendars'], ['travel', 'Travel', '/plan/travel']];

/** @param {{map: any}} o */
export function startPlanner({ map }) {
  const state = {
    shown: false,
    path: '',
    screen: '',
    /** @type {import('./layers.js').MapView} */
    mapView: NOTHING,
    /** @type {Promise<{calendars: any[], defaultCalendarId: string}>|null} */
    calendars: null,
    /** @type {Map<string, any>} */
    calendarById: new Map(),
    /** @type {((at: {lat: number, lon: number}) => void)|null} */
    picking: null,
    /** The map's view when the Plan opened, given back when it is left. */
    viewBefore: /** @type {any} */ (null),
  };
  addPlanLayers(map, () => (state.shown ? state.mapView : NOTHING));

  const tabs = el('nav', { class: 'plan-tabs', 'aria-label': 'Plan' },
    el('ul', null, TABS.map(([key, label, href]) => el('li', null, el('a', { class: 'plan-tab', href, id: `plan-tab-${key}`, dataset: { tab: key } }, label)))));
  const banner = warningBanner();
  const body = el('div', { class: 'plan-body', id: 'plan-body' });
  const pickBar = el('div', { class: 'plan-pickbar', id: 'plan-pickbar', hidden: true },
    el('p', { role: 'status' }, 'Tap the place on the map.'),
    el('button', { type: 'button', class: 'plan-button', on: { click: stopPicking } }, 'Cancel'));
  const sheet = el('section', { id: 'plan', class: 'sheet plan-sheet', hidden: true, 'aria-label': 'Plan' },
    el('div', { class: 'sheet-body plan-sheet-body' }, tabs, banner.el, body), pickBar);
  document.getElementById('app')?.append(sheet);

  let shownSeq = 0;

  /** @returns {PlanContext} */
  function context() {
    const seq = shownSeq;
    return {
      go: (path, o = {}) => go(path, o),
      alive: () => state.shown && seq === shownSeq,
      calendars,
      calendar: (id) => state.calendarById.get(id) ?? null,
      calendarsChanged: () => { state.calendars = null; },
      draw: (view, o = {}) => { if (seq === shownSeq) draw(view, o.fit); },
      pick: (done) => { if (seq === shownSeq) startPicking(done); },
      warn: (warnings) => banner.show(warnings),
    };
  }

  /** The calendars, read once until something changes them; the first read makes "Personal". */
  function calendars(fresh = false) {
    if (fresh || !state.calendars) {
      const read = listCalendars().then((list) => {
        state.calendarById = new Map(list.calendars.map((c) => [c.id, c]));
        return list;
      });
      read.catch(() => { if (state.calendars === read) state.calendars = null; });
      state.calendars = read;
    }
    return state.calendars;
  }

  // ---- The map ----
  function draw(view, fit = false) {
    state.mapView = view;
    sheet.dataset.mapStops = String(view.stops.length);
    map.invalidate();
    if (fit) {
      // After the screen has laid out, so the sheet's size is known.
      requestAnimationFrame(() => {
        const b = state.mapView === view ? viewBounds(view) : null;
        if (b) map.fitBounds(b, { padding: padding(), maxZoom: 16, animate: 300 });
      });
    }
  }

  /** The part of the map the sheet leaves visible: beside it on a wide screen, above it on a phone. */
  function padding() {
    const m = map.canvas.getBoundingClientRect();
    const s = sheet.getBoundingClientRect();
    if (innerWidth >= 760) return { top: 70, right: 100, bottom: 50, left: Math.max(50, s.right - m.left + 50) };
    return { top: 60, right: 90, bottom: Math.max(40, m.bottom - s.top + 40), left: 50 };
  }

  function startPicking(done) {
    state.picking = done;
    sheet.dataset.picking = 'true';
    pickBar.hidden = false;
  }

  function stopPicking() {
    state.picking = null;
    delete sheet.dataset.picking;
    pickBar.hidden = true;
  }

  map.on('tap', ({ x, y, hit }) => {
    if (!state.shown) return;
    if (state.picking) {
      const done = state.picking;
      stopPicking();
      done(map.unproject(x, y));
      return;
    }
    if (hit?.layer === 'plan-stops' && hit.feature?.eventId) go(`/plan/event/${encodeURIComponent(hit.feature.eventId)}/${hit.feature.day}`);
  });

  // ---- Screens ----
  /** @param {string} path */
  function screenOf(path) {
    let parts;
    try { parts = path.split('/').filter(Boolean).map(decodeURIComponent); } catch { return null; }
    if (parts.length > 5) return null;
    const [, a = '', b = '', c = '', d = ''] = parts;
    const ctx = context();
    const today = todayIn();
    if (a === '') return { tab: 'day', screen: 'day', node: () => dayView(ctx, today) };
    if (a === 'day' && isDay(b)) return { tab: 'day', screen: 'day', node: () => dayView(ctx, b) };
    if (a === 'week' && (!b || isDay(b))) return { tab: 'week', screen: 'week', node: () => weekView(ctx, b || today) };
    if (a === 'new' && (!b || isDay(b))) return { tab: 'day', screen: 'form', node: () => eventForm(ctx, { day: b || today }) };
    if (a === 'event' && b && isDay(c) && d === 'edit') return { tab: 'day', screen: 'form', node: () => eventForm(ctx, { eventId: b, occurrenceDay: c }) };
    if (a === 'event' && b && isDay(c) && !d) return { tab: 'day', screen: 'event', node: () => eventView(ctx, b, c) };
    if (a === 'calendars' && !b) return { tab: 'calendars', screen: 'calendars', node: () => calendarsView(ctx) };
    if (a === 'calendars') return { tab: 'calendars', screen: 'calendar', node: () => calendarEditor(ctx, b === 'new' ? null : b) };
    if (a === 'travel' && !b) return { tab: 'travel', screen: 'preferences', node: () => preferencesView(ctx) };
    return null;
  }

  /** @param {string} path */
  function show(path) {
    if (!state.shown) {
      // Parking keeps the map on its campus; events may be anywhere.
      state.viewBefore = { view: map.getView(), bounds: map.getMaxBounds() };
      map.setMaxBounds(null);
    }
    state.shown = true;
    sheet.hidden = false;
    stopPicking();
    shownSeq++;
    const screen = screenOf(path);
    if (!screen) {
      // An old or mistyped link is not a dead end: today's plan under the Plan's own path.
      go('/plan', { replace: true });
      return;
    }
    state.path = path;
    state.screen = screen.screen;
    state.mapView = NOTHING;
    sheet.dataset.screen = screen.screen;
    sheet.classList.toggle('tall', TALL.has(screen.screen));
    for (const link of tabs.querySelectorAll('a')) {
      if (link.dataset.tab === screen.tab) link.setAttribute('aria-current', 'page'); else link.removeAttribute('aria-current');
    }
    body.replaceChildren(screen.node());
    body.parentElement?.scrollTo({ top: 0 });
    map.invalidate();
  }

  function hide() {
    if (!state.shown) return;
    state.shown = false;
    shownSeq++;
    stopPicking();
    sheet.hidden = true;
    if (state.viewBefore) {
      map.setMaxBounds(state.viewBefore.bounds);
      map.setView(state.viewBefore.view);
    }
    map.invalidate();
  }

  // Signing in or out changes whose plan this is.
  onSessionChange(() => {
    state.calendars = null;
    banner.clear();
    if (state.shown) show(state.path);
  });

  return { show, hide, state };
}
