// Operate › Spots (PRK-1): close a spot for works or an event, and open it again. A spot is
// found by the label painted on the ground; the lot's closed spots are listed with an Open
// button each. States are read fresh each time, never from a saved copy.

import { el, button, field, form, errorLine } from './forms.js';
import { problemText } from '../shell/api.js';
import { toast } from '../shell/toast.js';
import { listLotSpots, getSpotStates, setSpotOpening } from './api.js';
import { lotPicker, statusLine, levelText } from './operate-parts.js';

const STATE_WORDS = { f: 'Free', o: 'Taken', h: 'Held', b: 'Booked', c: 'Closed', u: 'Unknown' };
const CATEGORY_WORDS = { handicap: 'Accessible', ev: 'EV charging', motorcycle: 'Motorcycle', visitor: 'Visitor', reserved: 'Reserved' };

/** @typedef {{id: string, ordinal: number, label: string, level: number, category: string}} Spot */

/**
 * @param {import('./operate-parts.js').OperateState} shared
 * @returns {{el: HTMLElement, show: () => void}}
 */
export function spotsSection(shared) {
  const root = el('div', 'op-section');
  const status = statusLine();
  const body = el('div', 'op-spots');
  /** @type {import('./operate-parts.js').Lot[]} */
  let lots = [];
  /** @type {{el: HTMLElement, sync: () => void}|null} */
  let picker = null;
  /** @type {import('./operate-parts.js').Lot|null} */
  let lot = null;
  /** @type {Spot[]} */
  let spots = [];
  let states = '';
  /** @type {Spot|null} the spot found by its label */
  let found = null;
  let loadedLot = '';

  const lookup = field({ label: 'Spot label', name: 'spot', autocomplete: 'off', maxLength: 32 });
  const labels = el('datalist');
  labels.id = `${lookup.input.id}-labels`;
  lookup.input.setAttribute('list', labels.id);
  lookup.wrap.append(labels);
  const card = el('div', 'op-spot-card');
  card.dataset.testid = 'op-spot';
  card.hidden = true;
  const cardError = errorLine();
  const closedHead = el('h4', 'op-subhead', 'Closed spots');
  const closedList = el('ul', 'op-list');
  closedList.dataset.testid = 'op-closed-spots';
  const closedEmpty = el('p', 'muted small', 'No spot of this lot is closed. Find a spot above to close it for works or an event.');

  const byLabel = (/** @type {string} */ text) => {
    const t = text.trim().toLowerCase();
    return t ? spots.find((s) => s.label.toLowerCase() === t) ?? null : null;
  };
  const stateOf = (/** @type {Spot} */ s) => states[s.ordinal] ?? 'u';
  const describe = (/** @type {Spot} */ s) => [lot ? levelText(lot, s.level) : '', CATEGORY_WORDS[s.category] ?? ''].filter(Boolean).join(' · ');

  const find = form({
    name: 'find-spot',
    submit: 'Find',
    children: [lookup.wrap],
    async action() {
      const s = byLabel(lookup.input.value);
      if (!s) { find.error.show(`No spot of ${lot?.name ?? 'this lot'} is labelled “${lookup.input.value.trim()}”.`); return; }
      found = s;
      drawCard();
    },
  });
  find.el.classList.add('op-inline');
  // Choosing a label from the list shows the spot without pressing Find.
  lookup.input.addEventListener('input', () => {
    find.error.clear();
    const s = byLabel(lookup.input.value);
    if (s && s !== found) { found = s; drawCard(); }
  });

  async function setOpen(/** @type {Spot} */ s, /** @type {boolean} */ open, /** @type {HTMLButtonElement} */ b) {
    cardError.clear();
    b.disabled = true;
    try {
      const r = await setSpotOpening(s.id, open);
      if (!shared.alive()) return;
      states = `${states.slice(0, s.ordinal)}${r.state}${states.slice(s.ordinal + 1)}`;
      toast(`Spot ${s.label} ${open ? 'opened' : 'closed'}`);
      drawCard();
      drawClosed();
    } catch (err) {
      if (!shared.alive()) return;
      if (found === s) cardError.show(problemText(err)); else toast(problemText(err));
      b.disabled = false;
    }
  }

  function drawCard() {
    card.hidden = !found;
    if (!found) { card.replaceChildren(); return; }
    const s = found;
    const state = stateOf(s);
    card.dataset.state = state;
    const badge = el('span', `op-state ${state}`, STATE_WORDS[state] ?? 'Unknown');
    badge.dataset.testid = 'op-spot-state';
    const closed = state === 'c';
    const b = button(closed ? 'Open spot' : 'Close spot', () => setOpen(s, closed, b), `acc-button ${closed ? 'primary' : 'danger'}`);
    b.dataset.action = closed ? 'open-spot' : 'close-spot';
    const head = el('div', 'op-spot-head', el('strong', 'op-spot-label', `Spot ${s.label}`), badge);
    const detail = describe(s);
    card.replaceChildren(head, detail ? el('p', 'muted small', detail) : '',
      el('p', 'small', closed ? 'Closed spots stay closed whatever the sensor says and are not counted as spaces.'
        : state === 'h' ? 'A driver holds this spot: it can be closed once the hold ends.' : 'Closing it takes it out of the lot’s spaces until it is opened again.'),
      b, cardError.el);
  }

  function drawClosed() {
    const closed = spots.filter((s) => stateOf(s) === 'c');
    closedHead.textContent = closed.length ? `Closed spots (${closed.length})` : 'Closed spots';
    closedEmpty.hidden = closed.length > 0;
    closedList.replaceChildren(...closed.map((s) => {
      const b = button('Open', () => setOpen(s, true, b), 'acc-button');
      b.dataset.action = 'open-spot';
      b.setAttribute('aria-label', `Open spot ${s.label}`);
      const detail = describe(s);
      const li = el('li', 'op-item', el('div', 'op-item-text', el('span', 'op-item-title', `Spot ${s.label}`), detail ? el('span', 'muted small', detail) : ''), b);
      li.dataset.label = s.label;
      return li;
    }));
  }

  async function open(/** @type {import('./operate-parts.js').Lot} */ chosen) {
    lot = chosen;
    loadedLot = chosen.id;
    found = null;
    body.hidden = true;
    status.textContent = 'Loading…';
    try {
      const [s, st] = await Promise.all([listLotSpots(chosen.id), getSpotStates(chosen.id)]);
      if (!shared.alive() || loadedLot !== chosen.id) return;
      spots = s.spots;
      states = st.states;
      status.textContent = spots.length ? '' : 'This lot has no spots of its own to close.';
      body.hidden = !spots.length;
      labels.replaceChildren(...spots.map((x) => el('option', { value: x.label })));
      lookup.input.placeholder = spots.length ? `As painted, e.g. ${spots[Math.min(11, spots.length - 1)].label}` : '';
      found = byLabel(lookup.input.value);
      drawCard();
      drawClosed();
    } catch (err) {
      if (shared.alive() && loadedLot === chosen.id) status.textContent = problemText(err);
    }
  }

  const refresh = button('Refresh', () => { if (lot) open(lot); }, 'link-button');
  refresh.dataset.action = 'refresh-spots';
  body.append(find.el, card, el('div', 'op-subhead-row', closedHead, refresh), closedEmpty, closedList);

  return {
    el: root,
    show() {
      if (picker) {
        picker.sync();
        // States change all the time: read them again whenever the section is shown.
        open(/** @type {any} */ (lots.find((l) => l.id === shared.lotId)));
        return;
      }
      status.textContent = 'Loading…';
      root.replaceChildren(status);
      shared.lots.then((all) => {
        if (!shared.alive()) return;
        lots = all;
        if (!lots.length) { status.textContent = 'This site has no lots yet: they come with its site file.'; return; }
        picker = lotPicker(shared, lots, open);
        root.replaceChildren(picker.el, status, body);
        open(/** @type {any} */ (lots.find((l) => l.id === shared.lotId)));
      }, (err) => { if (shared.alive()) status.textContent = problemText(err); });
    },
  };
}
