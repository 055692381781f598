// The card a pin opens (PRK-7, seed 2.2.3): permits, "taken / total", booking ahead (PRK-12),
// typical occupancy by hour with a weekday switch, the level chooser of a structure, hours,
// price, address, whether keys are left with an attendant, rules, and reviews (PRK-14). A
// bottom sheet on phones, a panel beside the map on wide screens; it follows live changes.

import { renderHistogram } from './histogram.js';
import { el } from '../shell/dom.js';
import { directionsURL } from '../shell/directions.js';
import { spanText, untilText } from '../shell/zoned-time.js';
import { getLotClosures } from './api.js';
import {
  siteNow, permitsNow, isOpen, hoursText, priceText, congestionText, number, weekdaySpan, timeSpan, age, clockTime,
} from './format.js';
import { permitChip as chipOf, inSiteOrder } from './permit-words.js';

const FREE_CODE = 'f'.charCodeAt(0);

/**
 * @param {{store: ReturnType<typeof import('./store.js').createParkingStore>,
 *          onClose: () => void, onLevel: (lotId: string, level: number) => void,
 *          booking?: (lot: any, timeZone: string) => HTMLElement|null,
 *          reviews?: (lot: any) => HTMLElement|null,
 *          watch?: (lot: any) => HTMLElement|null}} o
 *   booking: the "Book a space" section for a lot that takes bookings (PRK-12)
 *   reviews: the lot's rating and reviews (PRK-14)
 *   watch: the "Watch this lot" switch (PRK-15)
 */
export function createLotCard(o) {
  const { store } = o;
  const sheet = /** @type {HTMLElement} */ (document.getElementById('lot-card'));
  const body = /** @type {HTMLElement} */ (document.getElementById('lot-card-body'));
  let lotId = '';
  let weekday = 0;
  /** @type {HTMLElement|null} */
  let returnFocus = null;

  function occupancySection(lot) {
    const occ = store.state.occupancy.get(lot.id);
    const wrap = el('div', 'occupancy');
    wrap.id = 'lot-card-occupancy';
    if (!occ) { wrap.textContent = 'No occupancy data.'; return wrap; }
    const taken = occ.occupied + occ.held + occ.booked;
    sheet.dataset.taken = String(taken);
    sheet.dataset.total = String(occ.total);
    sheet.dataset.level = occ.level;
    const line = el('div', 'occupancy-line');
    const t = el('div', 'taken-count');
    t.append(`${number(taken)} `, el('small', '', `/ ${number(occ.total)} taken`));
    t.setAttribute('aria-label', `${number(taken)} of ${number(occ.total)} spots taken`);
    // No sensor has reported yet (a newly imported site): nothing to judge the lot by.
    const silent = occ.total > 0 && occ.unknown >= occ.total;
    line.append(t, silent ? el('span', 'congestion unknown', 'No sensor readings yet') : el('span', `congestion ${occ.level}`, congestionText(occ.level, occ.free)));
    const meter = el('div', 'meter');
    meter.setAttribute('aria-hidden', 'true');
    const fill = el('div', occ.level);
    fill.style.width = `${Math.min(100, Math.round(occ.fraction * 100))}%`;
    meter.append(fill);
    const extra = [`${number(occ.free)} free`];
    if (occ.held) extra.push(`${number(occ.held)} held`);
    if (occ.booked) extra.push(`${number(occ.booked)} booked`);
    if (occ.closed) extra.push(`${number(occ.closed)} closed`);
    if (occ.unknown) extra.push(`${number(occ.unknown)} without a sensor reading`);
    wrap.append(line, meter, el('p', 'free-line', extra.join(' · ')));
    const access = accessibleText(lot.id);
    if (access) {
      const p = el('p', 'accessible-line', access);
      p.dataset.testid = 'lot-accessible';
      wrap.append(p);
    }
    // How fresh the figures are: a sensor that falls quiet turns its spot unknown, so what
    // the card counts as free or taken was reported recently.
    if (occ.lastChangeAt && !silent) {
      const at = new Date(occ.lastChangeAt);
      const fresh = el('p', 'fresh-line muted small', `Last change ${age(at)}`);
      fresh.dataset.testid = 'lot-fresh';
      fresh.title = clockTime(at);
      if (occ.unknown) fresh.append(' · spots whose sensor has gone quiet count as without a reading');
      wrap.append(fresh);
    }
    return wrap;
  }

  /** "Accessible spots: 3 of 12 free", from the spots' kinds and their live states once loaded. */
  function accessibleText(id) {
    const spots = store.state.spots.get(id)?.spots;
    const codes = store.state.states.get(id)?.codes;
    if (!spots || !codes) return '';
    let total = 0, free = 0;
    for (const spot of spots) {
      if (spot.category !== 'handicap') continue;
      total++;
      if (codes[spot.ordinal] === FREE_CODE) free++;
    }
    if (!total) return '';
    return `Accessible spots: ${number(free)} of ${number(total)} free`;
  }

  const permitChip = (p) => chipOf(store.state.site, p);

  function permitsSection(lot, now) {
    const sec = el('section', 'section');
    sec.append(el('h3', '', 'Permits'));
    const current = permitsNow(lot.permitRules, now);
    const line = el('p', 'permit-now');
    line.dataset.testid = 'permit-now';
    if (current) {
      line.append('Now: ');
      inSiteOrder(store.state.site, current).forEach((p, i) => { if (i) line.append(' or '); line.append(permitChip(p)); });
    } else {
      line.textContent = 'Now: no permit needed';
    }
    sec.append(line);
    if (lot.permitRules.length) {
      const ul = el('ul', 'permit-rules');
      for (const r of lot.permitRules) {
        const li = el('li');
        li.append(el('span', 'when', `${weekdaySpan(r.weekdays)} ${timeSpan(r.startMinute, r.endMinute)}`));
        inSiteOrder(store.state.site, r.permits).forEach((p) => li.append(permitChip(p)));
        ul.append(li);
      }
      sec.append(ul);
    }
    return sec;
  }

  function levelsSection(lot) {
    const sec = el('section', 'section');
    sec.append(el('h3', '', 'Level'));
    const row = el('div', 'levels');
    row.setAttribute('role', 'group');
    row.setAttribute('aria-label', 'Level shown on the map');
    const counts = freeByLevel(lot.id);
    for (let lv = 0; lv < lot.levels; lv++) {
      const b = el('button');
      b.type = 'button';
      b.dataset.level = String(lv);
      b.setAttribute('aria-pressed', String(store.levelOf(lot.id) === lv));
      b.append(lv === 0 ? 'Ground' : `Level ${lv + 1}`);
      if (counts) b.append(el('small', '', `${counts[lv] ?? 0} free`));
      b.addEventListener('click', () => o.onLevel(lot.id, lv));
      row.append(b);
    }
    sec.append(row);
    return sec;
  }

  /** Free spots per level, when the lot's spots are loaded. */
  function freeByLevel(id) {
    const sp = store.state.spots.get(id);
    const st = store.state.states.get(id);
    if (!sp || !st) return null;
    const counts = [];
    for (const [level, set] of sp.sets) {
      let n = 0;
      for (let i = 0; i < set.count; i++) if (st.codes[set.ordinals[i]] === 102 /* f */) n++;
      counts[level] = n;
    }
    return counts;
  }

  /** @param {{spot?: string|null, extra?: HTMLElement|null}} [o] extra: what goes under the spot line (the hold button) */
  function render({ spot = null, extra = null } = {}) {
    const lot = store.state.lotById.get(lotId);
    if (!lot) return;
    const tz = store.state.site?.timeZone ?? 'UTC';
    const now = siteNow(tz);
    const occ = store.state.occupancy.get(lot.id);
    const head = el('div', 'card-head');
    const silent = !!occ && occ.total > 0 && occ.unknown >= occ.total;
    const badge = el('div', `card-badge ${silent ? 'unknown' : occ?.level ?? ''}`, lot.code);
    badge.setAttribute('aria-hidden', 'true');
    const title = el('div', 'card-title');
    const h2 = el('h2', '', lot.name);
    h2.id = 'lot-card-title';
    h2.tabIndex = -1;
    const open = isOpen(lot.hours, now);
    const kind = lot.kind === 'structure' ? `Structure · ${lot.levels} levels` : 'Surface lot';
    const openLine = el('p', '', `${kind} · ${open ? 'Open now' : 'Closed now'}`);
    title.append(h2, openLine);
    const close = el('button', 'close', '✕');
    close.type = 'button';
    close.setAttribute('aria-label', 'Close');
    close.addEventListener('click', () => api.close());
    head.append(badge, title, close);

    const closed = el('div', 'lot-closures');
    closed.dataset.testid = 'lot-closures';
    closed.hidden = true;
    showClosures(lot, tz, closed, () => { openLine.textContent = `${kind} · Closed now`; });
    const parts = [head, closed];
    if (spot) {
      const p = el('p', 'spot-line', spot);
      p.dataset.testid = 'spot-line';
      parts.push(p);
      if (extra) parts.push(extra);
    }
    const watch = o.watch ? o.watch(lot) : null;
    if (watch) parts.push(watch);
    const directions = el('a', { class: 'acc-button lot-directions', href: directionsURL(lot.entrance), target: '_blank', rel: 'noopener' },
      'Directions to the entrance');
    directions.dataset.testid = 'lot-directions';
    parts.push(occupancySection(lot), directions, permitsSection(lot, now));
    const booking = lot.booking && o.booking ? o.booking(lot, tz) : null;
    if (booking) parts.push(booking);

    const hist = el('section', 'section');
    hist.append(el('h3', '', 'Typical occupancy'));
    const histBody = el('div');
    histBody.id = 'lot-card-histogram';
    hist.append(histBody);
    parts.push(hist);
    if (lot.kind === 'structure' && lot.levels > 1) parts.push(levelsSection(lot));

    const facts = el('section', 'section');
    facts.append(el('h3', '', 'Details'));
    const dl = el('dl', 'facts');
    const fact = (k, v) => { if (v) dl.append(el('dt', '', k), el('dd', '', v)); };
    fact('Hours', hoursText(lot.hours));
    fact('Price', priceText(lot.price));
    fact('Spots', number(lot.capacity));
    fact('Address', lot.address);
    facts.append(dl);
    if (lot.keysRequired) {
      const keys = el('p', 'keys-required', 'Keys must be left with the attendant');
      keys.dataset.testid = 'keys-required';
      facts.append(keys);
    }
    if (lot.rules?.length) {
      const ul = el('ul', 'rules');
      lot.rules.forEach((r) => ul.append(el('li', '', r)));
      facts.append(ul);
    }
    parts.push(facts);
    const reviews = o.reviews ? o.reviews(lot) : null;
    if (reviews) parts.push(reviews);
    body.replaceChildren(...parts);
    drawHistogram(now);
  }

  /**
   * The dates the operator closed the lot on, under its name: "Closed through …" while one is
   * under way, else the next ones.
   * @param {any} lot @param {string} tz @param {HTMLElement} box @param {() => void} closedNow
   */
  async function showClosures(lot, tz, box, closedNow) {
    let closures = [];
    try { closures = (await getLotClosures(lot.id)).data.closures ?? []; } catch { return; /* offline, no saved copy: the booking form still says so */ }
    if (lotId !== lot.id || !box.isConnected || !closures.length) return;
    const now = Date.now();
    const lines = closures.slice(0, 3).map((c) => {
      const start = new Date(c.start), end = new Date(c.end);
      if (start.getTime() <= now) {
        closedNow();
        return el('p', 'closure-line now', `Closed ${untilText(end, tz)}: ${c.reason}`);
      }
      return el('p', 'closure-line', `Closed ${spanText(start, end, tz)}: ${c.reason}`);
    });
    box.replaceChildren(...lines);
    box.hidden = false;
  }

  function drawHistogram(now = siteNow(store.state.site?.timeZone ?? 'UTC')) {
    const root = document.getElementById('lot-card-histogram');
    if (!root) return;
    renderHistogram(root, {
      lotId, weekday, today: now.weekday, hour: now.hour,
      onDay: (d, dir) => {
        weekday = d;
        drawHistogram();
        // The buttons were rebuilt: keep keyboard focus on the arrow that was pressed.
        /** @type {HTMLElement|null} */ (root.querySelector(`[data-dir="${dir}"]`))?.focus();
      },
    });
    sheet.dataset.weekday = String(weekday);
  }

  // Dragging the sheet down by its handle dismisses it, as on native sheets.
  const handle = /** @type {HTMLElement} */ (sheet.querySelector('.sheet-handle'));
  let dragY = 0;
  handle.addEventListener('pointerdown', (e) => {
    dragY = e.clientY;
    handle.setPointerCapture(e.pointerId);
    sheet.style.transition = 'none';  // follow the finger, no easing lag
  });
  handle.addEventListener('pointermove', (e) => {
    if (!dragY) return;
    const dy = Math.max(0, e.clientY - dragY);
    sheet.style.transform = `translateY(${dy}px)`;
  });
  const endDrag = (e) => {
    if (!dragY) return;
    const dy = e.clientY - dragY;
    dragY = 0;
    sheet.style.transition = '';
    sheet.style.transform = '';
    if (dy > 70) api.close();
  };
  handle.addEventListener('pointerup', endDrag);
  handle.addEventListener('pointercancel', endDrag);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !sheet.hidden && !document.querySelector('dialog[open]')) api.close();
  });

  const refreshLive = () => {
    if (sheet.hidden) return;
    const lot = store.state.lotById.get(lotId);
    const old = document.getElementById('lot-card-occupancy');
    if (lot && old) old.replaceWith(occupancySection(lot));
    const badge = body.querySelector('.card-badge');
    const occ = store.state.occupancy.get(lotId);
    if (badge && occ) badge.className = `card-badge ${occ.level}`;
  };
  store.on('change', (id) => { if (id === lotId) refreshLive(); });
  // The accessible count needs the lot's spots and their states, which arrive on their own.
  store.on('spots', (id) => { if (id === lotId) refreshLive(); });
  store.on('states', (id) => { if (id === lotId) refreshLive(); });
  store.on('snapshot', refreshLive);
  const refreshLevels = (id) => {
    if (id !== lotId || sheet.hidden) return;
    const lot = store.state.lotById.get(lotId);
    const old = body.querySelector('.levels')?.closest('section');
    if (lot && old) old.replaceWith(levelsSection(lot));
  };
  store.on('level', refreshLevels);
  store.on('states', refreshLevels);
  store.on('spots', refreshLevels);

  const api = {
    /** @param {string} id @param {{spot?: string, extra?: HTMLElement|null}} [opts] */
    open(id, opts = {}) {
      const wasOpen = !sheet.hidden;
      if (!wasOpen) returnFocus = /** @type {HTMLElement|null} */ (document.activeElement);
      if (id !== lotId || !wasOpen) weekday = siteNow(store.state.site?.timeZone ?? 'UTC').weekday;
      lotId = id;
      sheet.dataset.lotId = id;
      sheet.setAttribute('aria-label', store.state.lotById.get(id)?.name ?? 'Lot');
      render({ spot: opts.spot ?? null, extra: opts.extra ?? null });
      // Its spots tell the accessible count; loaded once, whatever the zoom.
      store.ensureSpots(id).catch(() => {});
      if (!wasOpen) {
        sheet.hidden = false;
        sheet.classList.add('entering');
        requestAnimationFrame(() => requestAnimationFrame(() => sheet.classList.remove('entering')));
      }
      body.scrollTop = 0;
      document.getElementById('lot-card-title')?.focus({ preventScroll: true });
    },
    close() {
      if (sheet.hidden) return;
      sheet.hidden = true;
      lotId = '';
      sheet.dataset.lotId = '';
      o.onClose();
      if (returnFocus?.isConnected) returnFocus.focus({ preventScroll: true });
    },
    get lotId() { return sheet.hidden ? null : lotId; },
    /** Height the sheet covers at the bottom of the screen (0 when it sits beside the map). */
    coveredHeight() {
      if (sheet.hidden) return 0;
      const r = sheet.getBoundingClientRect();
      return r.width >= innerWidth - 1 ? r.height : 0;
    },
  };
  return api;
}
