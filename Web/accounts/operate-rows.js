// The rows of a lot's opening hours and permit rules (SITE_FILES.md, "Lots"). Days are seven
// switches, read from and written as the file's day words ("Mo-Fr", "Sa,Su"); a closing time of
// midnight means the end of the day, which the file writes "24:00" (a time input cannot hold it).

/** Midnight as the person's clock writes it: "12:00 AM" or "00:00". */
export const midnight = () => new Date(2000, 0, 1, 0, 0).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });

import { el, button, field } from './forms.js';
import { permitKinds, DEFAULT_COLOUR } from '../parking/permit-words.js';

export const DAYS = [['Mo', 'Monday'], ['Tu', 'Tuesday'], ['We', 'Wednesday'], ['Th', 'Thursday'], ['Fr', 'Friday'], ['Sa', 'Saturday'], ['Su', 'Sunday']];

/** The days (0 = Monday … 6 = Sunday) of "Mo-Fr", "Sa,Su", "Fr-Mo", "Mo-We,Fr". */
export function parseDays(/** @type {string} */ text) {
  const on = new Set();
  for (const part of String(text ?? '').split(',')) {
    const [a, b] = part.split('-').map((d) => DAYS.findIndex(([w]) => w.toLowerCase() === d.trim().toLowerCase()));
    if (a < 0 || b < 0) continue;
    if (b === undefined) { on.add(a); continue; }
    for (let i = a; ; i = (i + 1) % 7) { on.add(i); if (i === b) break; }
  }
  return on;
}

/** The file's words for a set of days: runs of three or more as a range. */
export function daysText(/** @type {Set<number>} */ on) {
  const parts = [];
  for (let i = 0; i < 7;) {
    if (!on.has(i)) { i += 1; continue; }
    let j = i;
    while (j + 1 < 7 && on.has(j + 1)) j += 1;
    if (j - i >= 2) parts.push(`${DAYS[i][0]}-${DAYS[j][0]}`);
    else for (let k = i; k <= j; k += 1) parts.push(DAYS[k][0]);
    i = j + 1;
  }
  return parts.join(',');
}

/** A switch styled as a chip; the label says the full word to a screen reader. */
function chip(/** @type {string} */ text, /** @type {string} */ spoken, /** @type {string} */ value, /** @type {boolean} */ checked, cls = '') {
  const box = el('input', { type: 'checkbox', value, checked, class: 'op-chip-box' });
  if (spoken !== text) box.setAttribute('aria-label', spoken);
  const label = el('label', `op-chip${cls ? ` ${cls}` : ''}`, box, el('span', spoken !== text ? { 'aria-hidden': 'true' } : null, text));
  return { label, box };
}

function dayPicker(/** @type {string} */ days) {
  const on = parseDays(days);
  const set = el('fieldset', 'op-chips');
  set.dataset.part = 'days';
  set.append(el('legend', 'op-legend', 'Days'));
  const boxes = DAYS.map(([short, long], i) => {
    const c = chip(short, long, short, on.has(i));
    set.append(c.label);
    return c.box;
  });
  return { el: set, value: () => daysText(new Set(boxes.flatMap((b, i) => (b.checked ? [i] : [])))) };
}

/** @param {string} label @param {string} name @param {string} value @param {boolean} end */
function timeField(label, name, value, end) {
  const f = field({ label, name, type: 'time', value: end && value === '24:00' ? '00:00' : value });
  f.wrap.classList.add('op-time');
  f.input.required = true;
  return { wrap: f.wrap, value: () => (end && f.input.value === '00:00' ? '24:00' : f.input.value) };
}

/** @param {string} what what the row is, for the Remove button's spoken name @param {() => void} remove */
export function removeButton(what, remove) {
  const b = button('Remove', remove, 'link-button op-remove');
  b.setAttribute('aria-label', `Remove ${what}`);
  return b;
}

/** @param {{days: string, open: string, close: string}} entry @param {() => void} remove */
export function hoursRow(entry, remove) {
  const row = el('fieldset', 'op-row');
  row.dataset.row = 'hours';
  const days = dayPicker(entry.days);
  const open = timeField('Opens', 'open', entry.open, false);
  const close = timeField('Closes', 'close', entry.close, true);
  row.append(el('legend', 'visually-hidden', 'Opening hours'), removeButton('these opening hours', remove), days.el,
    el('div', 'op-times', open.wrap, close.wrap));
  return { el: row, value: () => ({ days: days.value(), open: open.value(), close: close.value() }) };
}

/**
 * @param {{days: string, from: string, to: string, permits: string[]}} entry @param {() => void} remove
 * @param {any} site whose permits the rule may name (and the placard)
 */
export function permitRow(entry, remove, site) {
  const row = el('fieldset', 'op-row');
  row.dataset.row = 'permits';
  const days = dayPicker(entry.days);
  const from = timeField('From', 'from', entry.from, false);
  const to = timeField('Until', 'to', entry.to, true);
  const which = el('fieldset', 'op-chips');
  which.dataset.part = 'permits';
  which.append(el('legend', 'op-legend', 'Any of these permits'));
  const kinds = permitKinds(site);
  // A code the site no longer lists stays visible, so saving never drops it unseen.
  for (const code of entry.permits) if (!kinds.some((k) => k.code === code)) kinds.push({ code, name: code, colour: DEFAULT_COLOUR });
  const boxes = kinds.map((k) => {
    const c = chip(k.name, k.name, k.code, entry.permits.includes(k.code), 'permit-chip');
    c.label.style.setProperty('--dot', k.colour);
    which.append(c.label);
    return c.box;
  });
  row.append(el('legend', 'visually-hidden', 'Permit rule'), removeButton('this permit rule', remove), days.el,
    el('div', 'op-times', from.wrap, to.wrap), which);
  return {
    el: row,
    value: () => ({ days: days.value(), from: from.value(), to: to.value(), permits: boxes.filter((b) => b.checked).map((b) => b.value) }),
  };
}

/**
 * A list of rows with Add and Remove; adding or removing says so with a bubbling change event,
 * as editing a row does.
 * @template E
 * @param {{entries: E[], make: (entry: E, remove: () => void) => {el: HTMLElement, value: () => any},
 *   blank: () => E, add: string, empty: string, name: string}} o
 */
export function rowList(o) {
  const list = el('div', 'op-rows');
  list.dataset.rows = o.name;
  const empty = el('p', 'muted small op-empty', o.empty);
  /** @type {{el: HTMLElement, value: () => any}[]} */
  const rows = [];
  const changed = () => {
    empty.hidden = rows.length > 0;
    list.dispatchEvent(new Event('change', { bubbles: true }));
  };
  const addButton = button(o.add, () => {
    const row = put(o.blank());
    changed();
    /** @type {HTMLElement|null} */ (row.el.querySelector('input'))?.focus();
  }, 'acc-button op-add');
  addButton.dataset.action = `add-${o.name}`;
  function put(/** @type {E} */ entry) {
    const row = o.make(entry, () => {
      rows.splice(rows.indexOf(row), 1);
      row.el.remove();
      changed();
      addButton.focus();
    });
    rows.push(row);
    list.append(row.el);
    return row;
  }
  o.entries.forEach(put);
  empty.hidden = rows.length > 0;
  return { els: [empty, list, addButton], value: () => rows.map((r) => r.value()) };
}
