// Pieces the Operate screen's sections share (PRK-1): the sites the person runs (the menu asks
// too), a labelled <select>, the lot chooser of the Lots and Spots sections, and a status line.

import { el, button } from './forms.js';
import { listOperatedSites } from './api.js';
import { onSessionChange } from './session.js';

/**
 * @typedef {{id: string, code: string, name: string, timeZone: string}} Site
 * @typedef {{id: string, code: string, name: string, kind: string, capacity: number}} Lot
 * @typedef {object} OperateState what the sections of one site share
 * @property {Site} site
 * @property {Promise<Lot[]>} lots the site's lots, loaded once per visit
 * @property {string} lotId the lot the Lots and Spots sections show ('' before one is chosen)
 * @property {() => boolean} alive whether this site is still on screen
 */

/** @type {Site[]|null} the last answer, so the menu knows at once on the next visit */
let known = null;
onSessionChange(() => { known = null; });

/** @returns {Site[]|null} */
export const knownOperatedSites = () => known;

/** The sites the person runs, asked afresh (a role is granted or ended at any time). */
export async function operatedSites() {
  const r = await listOperatedSites();
  known = r.sites;
  return known;
}

let uid = 0;

/**
 * @param {{label: string, name: string, options: [string, string][], value?: string}} o
 */
export function selectField(o) {
  const id = `op-${o.name}-${++uid}`;
  const wrap = el('div', 'field');
  const select = /** @type {HTMLSelectElement} */ (el('select', { id, name: o.name }));
  setOptions(select, o.options, o.value);
  wrap.append(el('label', { htmlFor: id }, o.label), select);
  return { wrap, select };
}

/** @param {HTMLSelectElement} select @param {[string, string][]} options @param {string} [value] */
export function setOptions(select, options, value) {
  select.replaceChildren(...options.map(([v, text]) => el('option', { value: v }, text)));
  if (value != null && options.some(([v]) => v === value)) select.value = value;
}

/** A numbered list of problems ("1. The settings … 2. …") reads better one per line. */
export const perLine = (/** @type {string} */ s) => s.replace(/ (?=\d+\. [A-Z])/g, '\n');

/** A line screen readers announce when it changes. */
export function statusLine(cls = 'muted small') {
  const p = el('p', cls);
  p.setAttribute('role', 'status');
  return p;
}

/**
 * A save bar's state line ("Unsaved changes", "Saved. …") and its Discard button, shown while
 * the form differs from what is saved; call `edited` on every input.
 * @param {() => boolean} dirty @param {() => void} onDiscard @param {string} action the Discard button's data-action
 */
export function saveState(dirty, onDiscard, action) {
  const state = statusLine('op-save-status');
  state.dataset.testid = 'op-save-status';
  const discard = button('Discard changes', onDiscard, 'link-button');
  discard.dataset.action = action;
  discard.hidden = true;
  const say = (/** @type {string} */ words, kind = '') => { state.textContent = words; state.dataset.kind = kind; };
  const edited = () => {
    const d = dirty();
    discard.hidden = !d;
    if (d) say('Unsaved changes', 'dirty');
    else if (state.dataset.kind === 'dirty') say('');
  };
  return { state, discard, say, edited };
}

export const lotLabel = (/** @type {Lot} */ lot) => `${lot.name} (${lot.code})`;

/**
 * The lot chooser: shows the shared lot, and asks `mayLeave` before another is chosen (unsaved
 * edits of the one shown).
 * @param {OperateState} shared @param {Lot[]} lots
 * @param {(lot: Lot) => void} onPick @param {() => Promise<boolean>} [mayLeave]
 */
export function lotPicker(shared, lots, onPick, mayLeave = async () => true) {
  const f = selectField({ label: 'Lot', name: 'lot', options: lots.map((l) => [l.id, lotLabel(l)]), value: shared.lotId });
  if (!lots.some((l) => l.id === shared.lotId)) shared.lotId = lots[0]?.id ?? '';
  f.select.value = shared.lotId;
  f.select.addEventListener('change', async () => {
    const wanted = f.select.value;
    if (!(await mayLeave())) { f.select.value = shared.lotId; return; }
    shared.lotId = wanted;
    onPick(/** @type {Lot} */ (lots.find((l) => l.id === wanted)));
  });
  return {
    el: f.wrap,
    /** Follows a choice made in the other section. */
    sync() { f.select.value = shared.lotId; },
  };
}

/** "Ground level", "Level 2" in a structure; nothing on a surface lot. */
export function levelText(/** @type {Lot} */ lot, /** @type {number} */ level) {
  if (lot.kind !== 'structure') return '';
  return level === 0 ? 'Ground level' : `Level ${level + 1}`;
}
