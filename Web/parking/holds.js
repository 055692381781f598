// Soft holds (PRK-9, PRK-10; seed Feature 7). Tap a free (green) spot → "Hold this spot" →
// confirm the 10 minutes → the server holds it and everyone sees it yellow. While holding: a
// countdown, directions in the phone's maps app, a walking line on the map, Cancel. When the
// sensor sees a car on the spot (the spot turns taken on the live stream, or the 10-second
// poll says so) the app asks "was it you?": yes ends the hold and offers to save where the car
// is (on this device only, PRK-11); no moves the hold to the nearest free spot the user may
// use and redirects there. The server decides everything; this module shows it.

import { signedIn, hasDevice, onSessionChange, cachedMe } from '../accounts/session.js';
import { listHolds, holdSpot, getHold, answerHold, releaseHold } from './api.js';
import { getPermits } from '../accounts/api.js';
import { ProblemError, problemText } from '../shell/api.js';
import { choose, confirm, inform } from '../shell/dialog.js';
import { toast } from '../shell/toast.js';
import { el } from '../shell/dom.js';
import { defaultUnits } from '../accounts/units.js';
import { siteNow } from './format.js';
import { requiredPermits, permitWarning, metresBetween, distanceText } from './hold-format.js';
import { heldAt } from './permit-words.js';
import { createHoldBar } from './hold-bar.js';
import { holdLayer } from './hold-layer.js';

/** Seed 7.2: "Sensor status will be polled every 10 seconds during the reservation period." */
const POLL_MS = 10_000;
const TAKEN = 'o'.charCodeAt(0);
const FREE = 'f'.charCodeAt(0);

/**
 * @param {{
 *   map: import('../map/index.js').WaymarkMap,
 *   store: ReturnType<typeof import('./store.js').createParkingStore>,
 *   spotMinZoom: number,
 *   chooseLevel: (lotId: string, level: number) => void,
 *   closeCard: () => void,
 *   refresh: () => void,
 *   car?: {saveAt: (place: {lat: number, lon: number, spot?: string}) => void},
 * }} o
 */
export function startHolds(o) {
  const { map, store } = o;
  const s = store.state;
  /** The hold being shown (status active or asking), as the server last described it. */
  let hold = /** @type {any} */ (null);
  /** Local clock minus server clock, learnt from a hold the server has just made. */
  let skew = 0;
  let busy = false;
  /** The hold whose "was it you?" question has been asked. */
  let asked = '';
  let note = '';
  let redirects = 0;
  let pollTimer = 0;
  let tickTimer = 0;
  let expiryChecked = '';
  /** @type {Promise<void>|null} */
  let checking = null;
  /** @type {{lat: number, lon: number}|null} */
  let position = null;
  /** @type {number|null} */
  let watchId = null;

  const bar = createHoldBar({ onCancel: cancel, onAnswer: answer, onShow: show });
  const layer = holdLayer({ hold: () => hold, position: () => position, spotMinZoom: o.spotMinZoom });
  map.addLayer(layer);

  const remainingMs = () => (hold ? Math.max(0, Date.parse(hold.expiresAt) - (Date.now() - skew)) : 0);
  const stateOf = (lotId, ordinal) => s.states.get(lotId)?.codes[ordinal] ?? 0;
  const units = () => cachedMe()?.units?.distance ?? defaultUnits().distance;
  const spotOf = (h) => ({ lat: h.spotCenter.latitude, lon: h.spotCenter.longitude });
  const levelName = (h) => (s.lotById.get(h.lotId)?.kind === 'structure' ? (h.level === 0 ? 'Ground level' : `Level ${h.level + 1}`) : null);
  const distanceNow = () => (hold && position ? distanceText(metresBetween(position, spotOf(hold)), units()) : null);

  function info() {
    return { lotCode: hold.lotCode, level: levelName(hold), remainingMs: remainingMs(), distance: distanceNow(), busy, note };
  }

  function render() {
    if (!hold) return;
    bar.render(hold, info());
    map.invalidate();
  }

  function closeDialog(name) {
    const d = /** @type {HTMLDialogElement} */ (document.getElementById('dialog'));
    if (d.open && d.dataset.name === name) d.close('');
  }

  // ---- Showing a hold ----

  /** @param {any} h @param {{fresh?: boolean, mayAskLocation?: boolean}} [opts] */
  function adopt(h, opts = {}) {
    if (opts.fresh) skew = Date.now() - Date.parse(h.createdAt);
    hold = h;
    expiryChecked = '';
    store.ensureSpots(h.lotId);
    if (s.lotById.get(h.lotId)?.kind === 'structure') o.chooseLevel(h.lotId, h.level);
    clearInterval(pollTimer);
    pollTimer = setInterval(() => { check(); }, POLL_MS);
    clearInterval(tickTimer);
    tickTimer = setInterval(tick, 1000);
    watchPosition(!!opts.mayAskLocation);
    render();
    if (h.status === 'asking') ask();
  }

  function end() {
    closeDialog('hold-asking');
    closeDialog('hold-cancel');
    hold = null;
    note = '';
    busy = false;
    clearInterval(pollTimer);
    clearInterval(tickTimer);
    stopWatching();
    bar.hide();
    map.invalidate();
  }

  function tick() {
    if (!hold) return;
    bar.tick(info());
    // The server ends the hold at expiry; ask it once the countdown reaches zero.
    if (remainingMs() === 0 && expiryChecked !== hold.id) { expiryChecked = hold.id; check(); }
  }

  /** Centres the map on the held spot, close enough to see the spot bars. */
  function show() {
    if (!hold) return;
    if (s.lotById.get(hold.lotId)?.kind === 'structure') o.chooseLevel(hold.lotId, hold.level);
    map.setView({ center: spotOf(hold), zoom: Math.max(map.getView().zoom, o.spotMinZoom + 2.5) }, { animate: 400 });
  }

  // ---- Where the phone is: only for the line on the map, never sent anywhere ----

  async function watchPosition(mayAsk) {
    if (watchId !== null || !('geolocation' in navigator) || !window.isSecureContext) return;
    try {
      const perm = await navigator.permissions?.query({ name: 'geolocation' });
      // Asking is fine right after the user chose to hold; on reopening the app it is not.
      if (perm?.state === 'denied' || (perm?.state === 'prompt' && !mayAsk)) return;
    } catch { /* the Permissions API is optional */ }
    if (!hold || watchId !== null) return;
    watchId = navigator.geolocation.watchPosition((pos) => {
      if (!hold) return;
      position = { lat: pos.coords.latitude, lon: pos.coords.longitude };
      bar.tick(info());
      map.invalidate();
    }, () => { /* no position: no line, the hold works all the same */ }, { enableHighAccuracy: true, maximumAge: 5000, timeout: 30_000 });
  }

  function stopWatching() {
    if (watchId !== null) navigator.geolocation.clearWatch(watchId);
    watchId = null;
    position = null;
  }

  // ---- Following the server ----

  /** Asks the server how the hold is doing (seed 7.2: every 10 s, and at once on a live hint). */
  function check() {
    if (!hold || busy) return Promise.resolve();
    if (checking) return checking;
    const id = hold.id;
    checking = getHold(id)
      .then((h) => { if (hold?.id === id && !busy) update(h); })
      .catch((err) => {
        if (err instanceof ProblemError && err.status === 404 && hold?.id === id) end();
      })
      .finally(() => { checking = null; });
    return checking;
  }

  /** A live hint: the sensor reported the held spot, so ask the server now (a few times, in
   * case the hint travelled faster than the hold's own change). */
  let hintTries = 0;
  function checkSoon() {
    if (!hold) return;
    const id = hold.id;
    check().then(() => {
      if (hold?.id !== id || hold.status !== 'active' || stateOf(hold.lotId, hold.ordinal) !== TAKEN) { hintTries = 0; return; }
      if (++hintTries <= 5) setTimeout(checkSoon, 800);
      else hintTries = 0;
    });
  }

  const onLive = (lotId) => {
    if (!hold || lotId !== hold.lotId) return;
    const code = stateOf(hold.lotId, hold.ordinal);
    if ((code === TAKEN && hold.status === 'active') || code === FREE) checkSoon();
  };
  store.on('change', onLive);
  store.on('states', onLive);

  function update(h) {
    if (h.status === 'ended') { finished(h); return; }
    const changed = h.status !== hold.status || h.expiresAt !== hold.expiresAt || h.spotId !== hold.spotId;
    hold = h;
    if (changed) render();
    if (h.status === 'asking') ask();
  }

  /** The server ended the hold without this page asking (expiry, another tab or device). */
  function finished(h) {
    end();
    if (h.outcome === 'expired') toast(`Your hold on spot ${h.label} has ended: the 10 minutes are up`, 5000);
    else if (h.outcome === 'cancelled') toast(`The hold on spot ${h.label} was cancelled`);
    else if (h.outcome === 'replaced' || h.outcome === 'moved') resume();
    else if (h.outcome === 'nothing-free') toast(`Spot ${h.label} was taken and no other spot you may use is free`, 5000);
  }

  /** Opening the app (or signing in) while a hold is running picks it up again. */
  async function resume() {
    if (!signedIn() && !hasDevice()) { if (hold) end(); return; }
    try {
      const r = await listHolds();
      const current = (r?.holds ?? []).find((h) => h.status === 'active' || h.status === 'asking');
      if (current && current.id !== hold?.id) adopt(current);
      else if (!current && hold) end();
    } catch { /* offline, or a server without holds: nothing to show */ }
  }

  // ---- Was it you? (PRK-10) ----

  async function ask() {
    if (!hold || hold.status !== 'asking' || asked === hold.id) return;
    asked = hold.id;
    const h = hold;
    const choice = await choose({
      name: 'hold-asking', title: 'Was it you?',
      message: `A car just parked on spot ${h.label} in ${h.lotName}.`,
      actions: [{ id: 'no', label: 'No, find another spot' }, { id: 'yes', label: 'Yes, I parked', kind: 'primary' }],
    });
    if (choice && hold?.id === h.id) answer(choice === 'yes');
  }

  /** @param {boolean} wasMe */
  async function answer(wasMe) {
    if (!hold || busy || hold.status !== 'asking') return;
    const old = hold;
    closeDialog('hold-asking');
    busy = true;
    render();
    try {
      const r = await answerHold(old.id, wasMe);
      busy = false;
      if (wasMe) {
        end();
        o.refresh();
        // PRK-12: the sensor saw the car arrive, so a booking in this lot is checked in.
        if (r.checkedIn) toast(`Checked in to your booking at ${r.checkedIn.lotCode}`, 5000);
        offerToSave(r.answered ?? old);
      } else if (r.next) {
        redirects++;
        note = `Spot ${old.label} was taken, so you now hold the nearest free spot you may use.`;
        adopt(r.next, { fresh: true });
        show();
        o.refresh();
        toast(`Redirecting to spot ${r.next.label}`);
        bar.focus();
      } else {
        end();
        o.refresh();
        inform({
          name: 'hold-nothing-free', title: 'No free spot for you right now',
          message: `Every spot you may use is taken, so your hold has ended. Try again in a few minutes.`,
        });
      }
    } catch (err) {
      busy = false;
      if (err instanceof ProblemError && err.kind === 'hold-not-asking') { render(); check(); return; }
      render();
      toast(problemText(err), 5000);
    }
  }

  /** PRK-11: the car is where the held spot is; kept on this device only. */
  async function offerToSave(h) {
    if (!o.car) return;
    const ok = await confirm({
      name: 'hold-parked', title: 'Save where you parked?',
      message: `Waymark can remember spot ${h.label} in ${h.lotName} on this device only, so you can find your car later.`,
      confirm: 'Save where I parked',
    });
    if (ok) o.car.saveAt({ lat: h.spotCenter.latitude, lon: h.spotCenter.longitude, spot: `Spot ${h.label} · ${h.lotName}` });
  }

  // ---- Cancel ----

  async function cancel() {
    if (!hold || busy) return;
    const h = hold;
    const ok = await confirm({
      name: 'hold-cancel', title: `Release spot ${h.label}?`,
      message: 'It becomes free for anyone again and your directions end.', confirm: 'Release', danger: true,
    });
    if (!ok || hold?.id !== h.id) return;
    busy = true;
    render();
    try {
      await releaseHold(h.id);
      end();
      o.refresh();
      toast(`Spot ${h.label} released`);
    } catch (err) {
      busy = false;
      render();
      toast(problemText(err), 5000);
    }
  }

  // ---- Holding a spot (PRK-9) ----

  /** The permits this browser's user holds at a site; none for a guest who never chose any. */
  async function myPermits(siteId) {
    if (!signedIn() && !hasDevice()) return [];
    const r = await getPermits();
    return heldAt(r.permits, siteId);
  }

  /**
   * What the lot card shows under a tapped spot: the hold button for a free spot, with the
   * red permit warning under it when the user lacks the permit the spot needs now.
   * @param {string} lotId @param {any} spot as the server lists a lot's spots
   * @returns {HTMLElement|null}
   */
  function offer(lotId, spot) {
    const wrap = el('div', 'hold-offer');
    wrap.dataset.spotId = spot.id;
    if (hold && hold.spotId === spot.id) {
      wrap.append(el('p', 'hold-hint', 'You are holding this spot.'));
      return wrap;
    }
    if (stateOf(lotId, spot.ordinal) !== FREE) return null;
    const b = /** @type {HTMLButtonElement} */ (el('button', 'acc-button primary hold-button', 'Hold this spot'));
    b.type = 'button';
    b.dataset.testid = 'hold-spot';
    const warning = el('p', 'permit-warning');
    warning.dataset.testid = 'permit-warning';
    warning.hidden = true;
    const hint = el('p', 'hold-hint', 'Keeps it for you for 10 minutes while you drive there.');
    wrap.append(b, warning, hint);

    const lot = s.lotById.get(lotId);
    const required = lot ? requiredPermits(spot, lot, siteNow(s.site?.timeZone ?? 'UTC')) : null;
    let said = /** @type {string|null} */ (null);
    if (required) {
      wrap.dataset.permits = 'loading';
      myPermits(lot.siteId).then((mine) => {
        said = permitWarning(required, mine, s.site);
        warning.textContent = said ?? '';
        warning.hidden = !said;
        wrap.dataset.permits = 'checked';
      }).catch(() => { wrap.dataset.permits = 'unknown'; });
    } else {
      wrap.dataset.permits = 'checked';
    }

    // Someone else may hold or take it while the card is open.
    const off = store.on('change', (id) => {
      if (!wrap.isConnected) { off(); return; }
      if (id !== lotId || stateOf(lotId, spot.ordinal) === FREE || hold?.spotId === spot.id) return;
      b.disabled = true;
      hint.textContent = 'No longer free: someone else held or took it.';
      off();
    });
    b.addEventListener('click', () => request(lotId, spot, said));
    return wrap;
  }

  /** @param {string} lotId @param {any} spot @param {string|null} warning */
  async function request(lotId, spot, warning) {
    if (busy) return;
    const replacing = hold;
    const lot = s.lotById.get(lotId);
    const lines = [
      `Other drivers will see spot ${spot.label}${lot ? ` in ${lot.name}` : ''} as held for 10 minutes while you drive there. Then it is free for anyone again.`,
      'A car already on its way can still take it; the app will tell you and find you another spot.',
    ];
    if (replacing) lines.push(`Your hold on spot ${replacing.label} ends.`);
    const ok = await confirm({
      name: 'hold-confirm', title: `Hold spot ${spot.label} for 10 minutes?`,
      message: lines.join('\n\n'), warning: warning ?? undefined, confirm: 'Hold for 10 minutes',
    });
    if (!ok) return;
    busy = true;
    try {
      const h = await holdSpot(spot.id);
      busy = false;
      note = '';
      o.closeCard();
      adopt(h, { fresh: true, mayAskLocation: true });
      show();
      // Seed 3.3.2: a fresh snapshot after a reservation.
      o.refresh();
      toast(`Spot ${h.label} is yours for 10 minutes`);
      bar.focus();
    } catch (err) {
      busy = false;
      if (err instanceof ProblemError && err.kind === 'spot-not-free') {
        await inform({
          name: 'hold-not-free', title: 'This spot is no longer free',
          message: 'Someone else held or took it a moment ago. Tap another green spot.',
        });
      } else {
        await inform({ name: 'hold-failed', title: 'Couldn’t hold this spot', message: problemText(err) });
      }
    }
  }

  onSessionChange(() => { resume(); });
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') check(); });
  resume();

  return {
    offer,
    show,
    /** The hold on screen (tests). */
    snapshot() {
      if (!hold) return null;
      const drawn = layer.drawn();
      return {
        id: hold.id, status: hold.status, spotId: hold.spotId, lotId: hold.lotId, ordinal: hold.ordinal,
        label: hold.label, lotCode: hold.lotCode, expiresAt: hold.expiresAt, remainingMs: remainingMs(),
        permitWarning: hold.permitWarning ?? null, redirects, position, walk: drawn.walk, marker: drawn.marker,
      };
    },
  };
}
