// Where an event is held (PLN-2): a search of the Planner's places as the person types, or a
// point picked on the map and named. Answers can arrive out of order while someone types, so
// each question is numbered and only the latest one's answer is shown.

import { el } from '../shell/dom.js';
import { OfflineError } from '../shell/api.js';
import { searchPlaces } from './api.js';
import { PLACE_KINDS } from './format.js';
import { icon } from './icons.js';

/** @typedef {{name: string, latitude: number, longitude: number, detail?: string}} Place */

/**
 * @param {import('./index.js').PlanContext} ctx
 * @param {{initial: Place|null, onChange: () => void, describedBy: string}} o
 */
export function placeField(ctx, o) {
  /** @type {(Place & {picked?: boolean})|null} */
  let chosen = o.initial ? { ...o.initial } : null;
  let asked = 0;

  const search = el('input', {
    type: 'search', id: 'plan-place-search', class: 'plan-input', name: 'place-search', autocomplete: 'off', spellcheck: false,
    placeholder: 'A campus, station or landmark', 'aria-controls': 'plan-place-results', 'aria-describedby': o.describedBy,
    on: { input: ask, keydown: onKey },
  });
  const results = el('ul', { id: 'plan-place-results', class: 'plan-results', 'aria-label': 'Places found', hidden: true });
  const pick = el('button', { type: 'button', class: 'plan-button', id: 'plan-place-pick', on: { click: pickOnMap } }, icon('pin'), 'Pick on the map');
  const name = el('input', { type: 'text', id: 'plan-place-name', class: 'plan-input', name: 'place-name', maxLength: 200, autocomplete: 'off',
    'aria-describedby': o.describedBy, on: { input: () => { if (chosen) chosen.name = name.value.trim(); o.onChange(); } } });
  const nameRow = el('div', { class: 'plan-field plan-place-naming', hidden: true }, el('label', { htmlFor: 'plan-place-name' }, 'Name of the place you picked'), name);
  const shown = el('div', { class: 'plan-place-chosen', id: 'plan-place-chosen', hidden: true });
  const finder = el('div', 'plan-place-finder', el('div', 'plan-place-row', search, pick), results);
  const root = el('div', 'plan-place', shown, nameRow, finder);
  render();

  async function ask() {
    const text = search.value.trim();
    const n = ++asked;
    if (!text) { results.hidden = true; results.replaceChildren(); delete results.dataset.query; return; }
    let places;
    try {
      places = (await searchPlaces(text)).places;
    } catch (err) {
      if (n !== asked) return;
      results.hidden = false;
      results.replaceChildren(el('li', 'plan-results-none', err instanceof OfflineError ? 'Searching places needs a connection. You can still pick the place on the map.' : 'Places cannot be searched right now. Pick the place on the map instead.'));
      return;
    }
    if (n !== asked) return;
    results.hidden = false;
    results.dataset.query = text;
    results.replaceChildren(...(places.length ? places.map((p) => el('li', null, el('button', {
      type: 'button', class: 'plan-result', dataset: { kind: p.kind }, on: { click: () => choose({ name: p.name, latitude: p.latitude, longitude: p.longitude, detail: p.detail }) },
    }, el('span', 'plan-result-name', p.name), el('span', 'plan-result-detail', [PLACE_KINDS[p.kind], p.detail].filter(Boolean).join(' · ')))))
      : [el('li', 'plan-results-none', `No place matches “${text}”. Try another name, or pick it on the map.`)]));
  }

  function onKey(/** @type {KeyboardEvent} */ e) {
    if (e.key === 'Enter') {
      e.preventDefault();
      /** @type {HTMLButtonElement|null} */ (results.querySelector('button'))?.click();
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      /** @type {HTMLButtonElement|null} */ (results.querySelector('button'))?.focus();
    }
  }

  /** @param {Place & {picked?: boolean}} place */
  function choose(place) {
    chosen = place;
    asked++;
    search.value = '';
    results.hidden = true;
    results.replaceChildren();
    delete results.dataset.query;
    render();
    o.onChange();
  }

  function pickOnMap() {
    ctx.pick((at) => {
      choose({ name: chosen?.picked ? chosen.name : 'Place on the map', latitude: at.lat, longitude: at.lon, picked: true });
      name.focus();
      name.select();
    });
  }

  function clear() {
    chosen = null;
    render();
    o.onChange();
    search.focus();
  }

  function render() {
    shown.hidden = !chosen;
    finder.hidden = !!chosen;
    nameRow.hidden = !chosen?.picked;
    if (chosen?.picked) name.value = chosen.name;
    shown.replaceChildren(...(chosen ? [
      el('span', 'plan-place-text', el('span', 'plan-result-name', chosen.picked ? 'A point you picked on the map' : chosen.name),
        chosen.detail ? el('span', 'plan-result-detail', chosen.detail) : null),
      el('span', 'plan-place-actions',
        el('button', { type: 'button', class: 'plan-button small', on: { click: pickOnMap } }, 'Move on the map'),
        el('button', { type: 'button', class: 'plan-button small', id: 'plan-place-clear', on: { click: clear } }, 'Remove')),
    ] : []));
    root.dataset.chosen = chosen ? chosen.name : '';
    ctx.draw({ stops: [], trips: [], place: chosen ? { lat: chosen.latitude, lon: chosen.longitude, name: chosen.name || 'Place' } : null }, { fit: !!chosen });
  }

  return {
    el: root,
    /** @returns {Place|null} */
    value: () => (chosen ? { name: chosen.name, latitude: chosen.latitude, longitude: chosen.longitude } : null),
    /** What is wrong with the place, or null. */
    problem: () => (chosen && !chosen.name ? 'Name the place you picked.' : null),
  };
}
