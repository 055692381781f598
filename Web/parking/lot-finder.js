// "Find a lot" (PRK-14; UniPark: "which lots are rated above 4.5 around a given location?"):
// a toolbar button opens a panel with a search box (a lot's name, code or address; or a place
// on campus, whose nearby lots it then lists) and filters — rated above 4.5, near me, the map's
// centre or the place chosen, keys left with an attendant or not, my permits now, an
// accessible spot free now, a top hourly price — and lists the lots the server finds, nearest
// first when a point is given. Choosing one flies the map there and opens its card. The panel
// keeps clear of the toolbar so the account button stays in reach on a phone.

import { el, button } from '../accounts/forms.js';
import { problemText } from '../shell/api.js';
import { cachedMe } from '../accounts/session.js';
import { findLots } from './api.js';
import { searchPlaces } from '../rooms/api.js';
import { metresBetween } from './hold-format.js';
import { starRow, ratingText } from './star-picker.js';
import { priceText } from './format.js';
import { heldAt, permitName } from './permit-words.js';

const RADII = [[500, '500 m'], [1000, '1 km'], [2000, '2 km'], [5000, '5 km']];
/** Places further than this from the map's centre belong to another campus. */
const PLACE_REACH_METRES = 5000;
/** Some letter or digit: what the server needs of the words typed. */
const HAS_WORD = /[\p{L}\p{N}]/u;

/**
 * @param {{siteId: () => string, site: () => any, center: () => {lat: number, lon: number},
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
  const text = (() => {
    const wrap = el('div', 'field finder-text');
    const input = /** @type {HTMLInputElement} */ (el('input', { type: 'search', id: 'finder-q', name: 'q', autocomplete: 'off', maxLength: 200,
      placeholder: 'Nutwood, College Ave, library…', enterKeyHint: 'search' }));
    wrap.append(el('label', { htmlFor: 'finder-q' }, 'Lot, address or place'), input);
    return { wrap, input };
  })();
  /** The place chosen from the search, which "Near …" measures from. @type {{title: string, lat: number, lon: number}|null} */
  let place = null;
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
  const placesHead = el('p', 'finder-group', 'Places');
  placesHead.id = 'finder-places-head';
  const places = el('ul', 'finder-results finder-places');
  places.dataset.testid = 'finder-places';
  places.setAttribute('aria-labelledby', placesHead.id);
  const placesPart = el('div', 'finder-places-part', placesHead, places);
  placesPart.hidden = true;
  form.append(text.wrap, rated.wrap, near.wrap, radius.wrap, keys.wrap, permit.wrap, accessible.wrap, price.wrap);
  body.append(form, status, results, placesPart);

  const syncRadius = () => { radius.wrap.hidden = !near.select.value; };
  form.addEventListener('change', (e) => { if (e.target !== text.input) { syncRadius(); search(); } });
  // Typing searches once the person pauses, not at every key.
  let typing = 0;
  text.input.addEventListener('input', () => { clearTimeout(typing); typing = window.setTimeout(search, 250); });
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
      const held = heldAt(cachedMe()?.permits, o.siteId());
      f.permit = held.length ? held : ['none'];
    }
    const words = text.input.value.trim();
    if (HAS_WORD.test(words)) f.q = words;
    status.textContent = 'Searching…';
    try {
      if (near.select.value) {
        const point = near.select.value === 'me' ? await myPosition() : near.select.value === 'place' && place ? place : o.center();
        f.lat = Number(point.lat.toFixed(6));
        f.lon = Number(point.lon.toFixed(6));
        f.radius = Number(radius.select.value);
      }
      const [answer, found] = await Promise.all([findLots(o.siteId(), f), f.q ? placesNear(f.q) : []]);
      if (mine !== seq) return;
      draw(answer.lots, f, found);
    } catch (err) {
      if (mine !== seq) return;
      results.replaceChildren();
      status.textContent = err instanceof Error && !('status' in err) ? err.message : problemText(err);
    }
  }

  /** Buildings, rooms and services of this campus the words name (people and amenities are not
   *  where one parks for); none when search cannot be reached. */
  async function placesNear(/** @type {string} */ words) {
    try {
      const centre = o.center();
      const { data } = await searchPlaces(words, undefined, 10);
      return data.places.filter((/** @type {any} */ p) => p.position && ['building', 'room', 'service'].includes(p.kind)
        && metresBetween({ lat: p.position.latitude, lon: p.position.longitude }, centre) <= PLACE_REACH_METRES).slice(0, 4);
    } catch {
      return [];
    }
  }

  /** "Near Pfau Library" becomes the point lots are measured from; the words give way to it. */
  function choosePlace(/** @type {any} */ p) {
    place = { title: p.title, lat: p.position.latitude, lon: p.position.longitude };
    let option = /** @type {HTMLOptionElement|null} */ (near.select.querySelector('option[value="place"]'));
    if (!option) {
      option = /** @type {HTMLOptionElement} */ (el('option', { value: 'place' }));
      near.select.append(option);
    }
    option.textContent = `Near ${p.title}`;
    near.select.value = 'place';
    text.input.value = '';
    syncRadius();
    search();
  }

  function drawPlaces(/** @type {any[]} */ found) {
    placesPart.hidden = !found.length;
    places.replaceChildren(...found.map((p) => {
      const b = button('', () => choosePlace(p), 'finder-lot finder-place');
      b.dataset.placeId = p.id;
      b.setAttribute('aria-label', `Lots near ${p.title}`);
      b.append(el('strong', '', p.title), el('small', 'muted', `Lots near it${p.subtitle ? ` · ${p.subtitle}` : ''}`));
      return el('li', null, b);
    }));
  }

  function draw(lots, f, found = []) {
    const held = f.permit && f.permit[0] !== 'none' ? ` (${f.permit.map((p) => permitName(o.site(), p)).join(', ')})` : '';
    const none = f.q
      ? `No lot is called “${f.q}”${found.length ? '; lots near a place it names are below.' : '. Try other words or fewer filters.'}`
      : 'No lot matches. Try fewer filters.';
    const around = near.select.value === 'place' && place && f.lat != null ? ` near ${place.title}` : '';
    status.textContent = lots.length === 0 ? none
      : `${lots.length === 1 ? '1 lot' : `${lots.length} lots`}${around}${f.permit ? ` open to you now${held}` : ''}`;
    drawPlaces(found);
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
