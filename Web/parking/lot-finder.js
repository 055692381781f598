// "Find a lot" (PRK-14; UniPark: "which lots are rated above 4.5 around a given location?"):
// a toolbar button opens a panel of filters — rated above 4.5, near me or near the map's
// centre, keys left with an attendant or not, my permits now, an accessible spot free now, a
// top hourly price — and lists
// the lots the server finds, nearest first when a point is given. Choosing one flies the map
// there and opens its card. The panel keeps clear of the toolbar so the account button stays
// in reach on a phone.

import { el, button } from '../accounts/forms.js';
import { problemText } from '../shell/api.js';
import { cachedMe } from '../accounts/session.js';
import { findLots } from './api.js';
import { starRow, ratingText } from './star-picker.js';
import { priceText, PERMIT_NAMES } from './format.js';

const RADII = [[500, '500 m'], [1000, '1 km'], [2000, '2 km'], [5000, '5 km']];

/**
 * @param {{siteId: () => string, center: () => {lat: number, lon: number},
 *   openLot: (lotId: string) => void}} o
 */
export function createLotFinder(o) {
  const toolButton = /** @type {HTMLButtonElement} */ (document.getElementById('btn-find'));
  const panel = /** @type {HTMLElement} */ (document.getElementById('finder'));
  const body = /** @type {HTMLElement} */ (document.getElementById('finder-body'));
  const closeButton = /** @type {HTMLElement} */ (document.getElementById('finder-close'));
  let seq = 0;

  const form = /** @type {HTMLFormElement} */ (el('form', 'finder-form'));
  form.noValidate = true;
  const check = (name, label) => {
    const wrap = el('label', 'check');
    const input = /** @type {HTMLInputElement} */ (el('input'));
    input.type = 'checkbox';
    input.name = name;
    wrap.append(input, ` ${label}`);
    return { wrap, input };
  };
  const select = (name, label, options) => {
    const wrap = el('div', 'field');
    const id = `finder-${name}`;
    const l = /** @type {HTMLLabelElement} */ (el('label', '', label));
    l.htmlFor = id;
    const s = /** @type {HTMLSelectElement} */ (el('select'));
    s.id = id;
    s.name = name;
    for (const [value, text] of options) {
      const opt = /** @type {HTMLOptionElement} */ (el('option', '', text));
      opt.value = String(value);
      s.append(opt);
    }
    wrap.append(l, s);
    return { wrap, select: s };
  };
  const rated = check('rated', 'Rated above 4.5');
  const near = select('near', 'Where', [['', 'Anywhere on campus'], ['me', 'Near me'], ['map', 'Near the map centre']]);
  const radius = select('radius', 'Within', RADII);
  radius.select.value = '1000';
  const keys = select('keys', 'Keys', [['', 'Either'], ['true', 'Keys left with the attendant'], ['false', 'Keep my keys']]);
  const permit = check('permit', 'Open to my permits now');
  const accessible = check('accessible', 'An accessible spot free now');
  const price = select('price', 'Price per hour', [['', 'Any price'], ['100', 'Up to $1.00'], ['200', 'Up to $2.00'], ['300', 'Up to $3.00'], ['500', 'Up to $5.00']]);
  const status = el('p', 'muted small');
  status.setAttribute('role', 'status');
  status.dataset.testid = 'finder-status';
  const results = el('ul', 'finder-results');
  results.dataset.testid = 'finder-results';
  results.setAttribute('aria-label', 'Matching lots');
  form.append(rated.wrap, near.wrap, radius.wrap, keys.wrap, permit.wrap, accessible.wrap, price.wrap);
  body.append(form, status, results);

  const syncRadius = () => { radius.wrap.hidden = !near.select.value; };
  form.addEventListener('change', () => { syncRadius(); search(); });
  form.addEventListener('submit', (e) => { e.preventDefault(); search(); });
  syncRadius();

  /** @returns {Promise<{lat: number, lon: number}>} */
  function myPosition() {
    return new Promise((resolve, reject) => {
      if (!('geolocation' in navigator)) { reject(new Error('This browser cannot tell where you are.')); return; }
      navigator.geolocation.getCurrentPosition(
        (p) => resolve({ lat: p.coords.latitude, lon: p.coords.longitude }),
        () => reject(new Error('Your location is not available: allow it, or search near the map centre.')),
        { enableHighAccuracy: false, timeout: 10_000, maximumAge: 60_000 },
      );
    });
  }

  async function search() {
    const mine = ++seq;
    /** @type {Record<string, any>} */
    const f = {};
    if (rated.input.checked) f.ratingAbove = 4.5;
    if (keys.select.value) f.keysRequired = keys.select.value === 'true';
    if (price.select.value) f.maxHourlyCents = Number(price.select.value);
    if (accessible.input.checked) f.accessible = true;
    if (permit.input.checked) {
      const held = cachedMe()?.permits ?? [];
      f.permit = held.length ? held : ['none'];
    }
    status.textContent = 'Searching…';
    try {
      if (near.select.value) {
        const point = near.select.value === 'me' ? await myPosition() : o.center();
        f.lat = Number(point.lat.toFixed(6));
        f.lon = Number(point.lon.toFixed(6));
        f.radius = Number(radius.select.value);
      }
      const answer = await findLots(o.siteId(), f);
      if (mine !== seq) return;
      draw(answer.lots, f);
    } catch (err) {
      if (mine !== seq) return;
      results.replaceChildren();
      status.textContent = err instanceof Error && !('status' in err) ? err.message : problemText(err);
    }
  }

  function draw(lots, f) {
    const held = f.permit && f.permit[0] !== 'none' ? ` (${f.permit.map((p) => PERMIT_NAMES[p] ?? p).join(', ')})` : '';
    status.textContent = lots.length === 0 ? 'No lot matches. Try fewer filters.'
      : `${lots.length === 1 ? '1 lot' : `${lots.length} lots`}${f.permit ? ` open to you now${held}` : ''}`;
    panel.dataset.count = String(lots.length);
    results.replaceChildren(...lots.map((lot) => {
      const li = el('li');
      const b = button('', () => choose(lot.id), 'finder-lot');
      b.dataset.lotId = lot.id;
      b.dataset.code = lot.code;
      const rating = lot.rating?.count
        ? (() => { const s = el('span', 'finder-rating'); s.append(starRow(lot.rating.average), ` ${ratingText(lot.rating.average)} (${lot.rating.count})`); return s; })()
        : el('span', 'finder-rating muted', 'Not rated yet');
      const facts = [priceText(lot.price)];
      if (lot.distanceMetres != null) facts.unshift(lot.distanceMetres < 1000 ? `${Math.round(lot.distanceMetres / 10) * 10} m` : `${(lot.distanceMetres / 1000).toFixed(1)} km`);
      if (lot.keysRequired) facts.push('Keys left with the attendant');
      b.append(el('strong', '', `${lot.code} · ${lot.name}`), rating, el('small', 'muted', facts.join(' · ')));
      li.append(b);
      return li;
    }));
  }

  function choose(lotId) {
    api.close(false);
    o.openLot(lotId);
  }

  const api = {
    open() {
      panel.hidden = false;
      toolButton.setAttribute('aria-expanded', 'true');
      search();
      /** @type {HTMLElement} */ (form.querySelector('input, select'))?.focus();
    },
    /** @param {boolean} [restoreFocus] */
    close(restoreFocus = true) {
      if (panel.hidden) return;
      panel.hidden = true;
      toolButton.setAttribute('aria-expanded', 'false');
      if (restoreFocus) toolButton.focus();
    },
    get isOpen() { return !panel.hidden; },
  };
  toolButton.addEventListener('click', () => (panel.hidden ? api.open() : api.close()));
  closeButton.addEventListener('click', () => api.close());
  panel.addEventListener('keydown', (e) => { if (e.key === 'Escape') { e.stopPropagation(); api.close(); } });
  return api;
}
