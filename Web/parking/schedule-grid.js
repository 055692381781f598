// The weekly schedule grid (PRK-16): Sunday–Saturday columns × 48 half-hour rows. Pointer
// Events, so a finger and a mouse work alike:
//  - long-press an empty cell, then drag up or down: selects adjacent empty cells of that day
//    (the selection stops at a block) and creates a block on release;
//  - tap a block: choose its lot;
//  - long-press a block: edit mode, with handles to drag its start or end and a delete button.
// A plain swipe scrolls. Keyboard: Enter on a block chooses its lot, the context-menu key
// edits it, arrow keys move a focused handle, Delete removes it, Escape leaves edit mode.

import { el } from '../accounts/forms.js';
import { WEEKDAYS, hourLabel } from './format.js';
import { slotRange } from './schedule-format.js';

export const SLOTS = 48;
const LONG_PRESS_MS = 450;
const MOVE_TOLERANCE = 10;
const SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * @typedef {{id: string, weekday: number, startSlot: number, endSlot: number, lotId?: string, lotName?: string,
 *   advice: {level: 'green'|'yellow'|'red'|'unknown'|'none', reason: string, typicalOccupancy?: number, requiredPermits?: string[]},
 *   waiting?: boolean}} Block waiting: made or changed offline, not sent yet
 */

/**
 * @param {{blocks: () => Block[], today: () => number, shortName?: (b: Block) => string|null|undefined,
 *   onCreate: (weekday: number, startSlot: number, endSlot: number) => void,
 *   onTap: (block: Block) => void,
 *   onResize: (block: Block, startSlot: number, endSlot: number) => void,
 *   onDelete: (block: Block) => void}} o
 */
export function createScheduleGrid(o) {
  const root = el('div', 'sched');
  root.setAttribute('role', 'group');
  root.setAttribute('aria-label', 'Weekly schedule');
  const head = el('div', 'sched-head');
  head.setAttribute('aria-hidden', 'true');
  const body = el('div', 'sched-body');
  root.append(head, body);

  /** @type {string|null} the block in edit mode */
  let editId = null;
  /** @type {null|{id: number, x: number, y: number, kind: 'cell'|'block', weekday: number, slot: number, blockId?: string, timer: number, fired: boolean}} */
  let press = null;
  /** @type {null|{weekday: number, anchor: number, lo: number, hi: number}} */
  let selection = null;
  /** @type {null|{id: string, edge: 'start'|'end', weekday: number, start: number, end: number, min: number, max: number}} */
  let resize = null;

  const blockById = (/** @type {string} */ id) => o.blocks().find((b) => b.id === id) ?? null;

  /** Slots taken on a weekday, leaving out one block (the one being resized). */
  function taken(/** @type {number} */ weekday, /** @type {string|null} */ except = null) {
    const t = new Array(SLOTS).fill(false);
    for (const b of o.blocks()) {
      if (b.weekday !== weekday || b.id === except) continue;
      for (let s = b.startSlot; s < b.endSlot; s++) t[s] = true;
    }
    return t;
  }

  const columns = () => /** @type {HTMLElement[]} */ ([...body.querySelectorAll('.sched-col')]);

  function columnAt(/** @type {number} */ x) {
    return columns().find((c) => { const r = c.getBoundingClientRect(); return x >= r.left && x < r.right; }) ?? null;
  }

  function slotAt(/** @type {HTMLElement} */ col, /** @type {number} */ y) {
    const r = col.getBoundingClientRect();
    return Math.max(0, Math.min(SLOTS - 1, Math.floor((y - r.top) / (r.height / SLOTS))));
  }

  function place(/** @type {HTMLElement} */ node, /** @type {number} */ start, /** @type {number} */ end) {
    node.style.top = `${(start / SLOTS) * 100}%`;
    node.style.height = `${((end - start) / SLOTS) * 100}%`;
  }

  function blockNode(/** @type {Block} */ b) {
    const level = b.advice?.level ?? 'none';
    const node = /** @type {HTMLButtonElement} */ (el('button', `sched-block ${level}`));
    node.type = 'button';
    node.dataset.blockId = b.id;
    node.dataset.weekday = String(b.weekday);
    node.dataset.start = String(b.startSlot);
    node.dataset.end = String(b.endSlot);
    node.dataset.level = level;
    if (b.lotId) node.dataset.lotId = b.lotId;
    const name = b.lotName ?? (b.lotId ? 'Lot' : 'Choose a lot');
    const mark = level === 'yellow' || level === 'red' ? el('span', `warn-mark ${level}`, '!') : null;
    mark?.setAttribute('aria-hidden', 'true');
    // Columns are narrow on a phone: the lot's code ("A", "NPS") when known, the name otherwise.
    const label = el('span', 'sched-block-name', (b.lotId && o.shortName?.(b)) || name);
    const time = el('span', 'sched-block-time', slotRange(b.startSlot, b.endSlot));
    if (mark) node.append(mark);
    node.append(label, time);
    const said = [b.advice?.reason, b.waiting ? 'Waiting to send.' : ''].filter(Boolean).join(' ');
    node.setAttribute('aria-label', `${WEEKDAYS[b.weekday - 1]} ${slotRange(b.startSlot, b.endSlot)}, ${name}${said ? `. ${said}` : ''}`);
    node.title = said;
    if (b.waiting) node.classList.add('waiting');
    place(node, b.startSlot, b.endSlot);
    if (b.id === editId) {
      node.classList.add('editing');
      node.setAttribute('aria-describedby', 'sched-edit-help');
      for (const edge of /** @type {const} */ (['start', 'end'])) {
        const h = el('span', `sched-handle ${edge}`);
        h.dataset.edge = edge;
        h.tabIndex = 0;
        h.setAttribute('role', 'slider');
        h.setAttribute('aria-label', edge === 'start' ? 'Start time' : 'End time');
        h.setAttribute('aria-valuemin', '0');
        h.setAttribute('aria-valuemax', String(SLOTS));
        h.setAttribute('aria-valuenow', String(edge === 'start' ? b.startSlot : b.endSlot));
        h.setAttribute('aria-valuetext', slotRange(b.startSlot, b.endSlot));
        node.append(h);
      }
      const del = el('span', 'sched-delete', '✕');
      del.tabIndex = 0;
      del.setAttribute('role', 'button');
      del.setAttribute('aria-label', 'Delete block');
      del.dataset.testid = 'delete-block';
      node.append(del);
    }
    return node;
  }

  function render() {
    const today = o.today();
    head.replaceChildren(el('div', 'sched-corner'), ...SHORT.map((d, i) => {
      const h = el('div', `sched-day${i + 1 === today ? ' today' : ''}`, d);
      h.title = WEEKDAYS[i];
      return h;
    }));
    const times = el('div', 'sched-times');
    times.setAttribute('aria-hidden', 'true');
    for (let h = 1; h < 24; h++) {
      const t = el('span', 'sched-time', hourLabel(h));
      place(t, h * 2, h * 2 + 2);
      times.append(t);
    }
    const cols = [];
    for (let d = 1; d <= 7; d++) {
      const col = el('div', `sched-col${d === today ? ' today' : ''}`);
      col.dataset.weekday = String(d);
      col.setAttribute('role', 'group');
      col.setAttribute('aria-label', WEEKDAYS[d - 1]);
      for (const b of o.blocks().filter((x) => x.weekday === d).sort((a, c) => a.startSlot - c.startSlot)) col.append(blockNode(b));
      cols.push(col);
    }
    body.replaceChildren(times, ...cols);
    drawSelection();
    root.dataset.editing = editId ?? '';
  }

  function drawSelection() {
    body.querySelector('.sched-selection')?.remove();
    if (!selection) return;
    const col = columns()[selection.weekday - 1];
    const s = el('div', 'sched-selection');
    s.dataset.start = String(selection.lo);
    s.dataset.end = String(selection.hi + 1);
    s.append(el('span', '', slotRange(selection.lo, selection.hi + 1)));
    place(s, selection.lo, selection.hi + 1);
    col?.append(s);
  }

  function setEdit(/** @type {string|null} */ id) {
    if (editId === id) return;
    editId = id;
    render();
    if (id) /** @type {HTMLElement|null} */ (body.querySelector(`[data-block-id="${id}"] .sched-handle.end`))?.focus({ preventScroll: true });
  }

  function cancelPress() {
    if (press) clearTimeout(press.timer);
    press = null;
  }

  body.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    const target = /** @type {HTMLElement} */ (e.target);
    cancelPress();
    const handle = /** @type {HTMLElement|null} */ (target.closest('.sched-handle'));
    const blockEl = /** @type {HTMLElement|null} */ (target.closest('.sched-block'));
    if (target.closest('.sched-delete')) return;
    if (handle && blockEl) {
      const b = blockById(/** @type {string} */ (blockEl.dataset.blockId));
      if (!b) return;
      const t = taken(b.weekday, b.id);
      let min = b.startSlot;
      while (min > 0 && !t[min - 1]) min--;
      let max = b.endSlot;
      while (max < SLOTS && !t[max]) max++;
      resize = { id: b.id, edge: /** @type {'start'|'end'} */ (handle.dataset.edge), weekday: b.weekday, start: b.startSlot, end: b.endSlot, min, max };
      body.setPointerCapture(e.pointerId);
      e.preventDefault();
      return;
    }
    const col = /** @type {HTMLElement|null} */ (target.closest('.sched-col'));
    if (!col) return;
    const weekday = Number(col.dataset.weekday);
    const slot = slotAt(col, e.clientY);
    if (!blockEl && taken(weekday)[slot]) return;
    press = {
      id: e.pointerId, x: e.clientX, y: e.clientY, weekday, slot, fired: false,
      kind: blockEl ? 'block' : 'cell', blockId: blockEl?.dataset.blockId,
      timer: window.setTimeout(longPress, LONG_PRESS_MS),
    };
    if (e.pointerType === 'mouse') body.setPointerCapture(e.pointerId);
  });

  function longPress() {
    if (!press) return;
    press.fired = true;
    navigator.vibrate?.(12);
    if (press.kind === 'block') {
      setEdit(press.blockId ?? null);
      press = null;
    } else {
      setEdit(null);
      selection = { weekday: press.weekday, anchor: press.slot, lo: press.slot, hi: press.slot };
      root.classList.add('selecting');
      drawSelection();
    }
  }

  body.addEventListener('pointermove', (e) => {
    if (resize) {
      const col = columns()[resize.weekday - 1];
      const slot = slotAt(col, e.clientY);
      if (resize.edge === 'start') resize.start = Math.max(resize.min, Math.min(slot, resize.end - 1));
      else resize.end = Math.min(resize.max, Math.max(slot + 1, resize.start + 1));
      const node = /** @type {HTMLElement|null} */ (body.querySelector(`[data-block-id="${resize.id}"]`));
      if (node) {
        place(node, resize.start, resize.end);
        node.dataset.start = String(resize.start);
        node.dataset.end = String(resize.end);
        const time = node.querySelector('.sched-block-time');
        if (time) time.textContent = slotRange(resize.start, resize.end);
      }
      return;
    }
    if (selection) {
      const col = columns()[selection.weekday - 1];
      const slot = slotAt(col, e.clientY);
      const t = taken(selection.weekday);
      let lo = selection.anchor;
      let hi = selection.anchor;
      while (lo > slot && !t[lo - 1]) lo--;
      while (hi < slot && !t[hi + 1] && hi + 1 < SLOTS) hi++;
      if (lo !== selection.lo || hi !== selection.hi) {
        selection.lo = lo;
        selection.hi = hi;
        drawSelection();
      }
      return;
    }
    if (press && press.id === e.pointerId && Math.hypot(e.clientX - press.x, e.clientY - press.y) > MOVE_TOLERANCE) cancelPress();
  });

  function finish(/** @type {PointerEvent} */ e, /** @type {boolean} */ cancelled) {
    if (resize) {
      const r = resize;
      resize = null;
      const b = blockById(r.id);
      if (!cancelled && b && (r.start !== b.startSlot || r.end !== b.endSlot)) o.onResize(b, r.start, r.end);
      else render();
      return;
    }
    if (selection) {
      const s = selection;
      selection = null;
      root.classList.remove('selecting');
      drawSelection();
      if (!cancelled) o.onCreate(s.weekday, s.lo, s.hi + 1);
      return;
    }
    if (press && press.id === e.pointerId && !press.fired && !cancelled) {
      const p = press;
      cancelPress();
      if (p.kind === 'block' && p.blockId) {
        if (editId && editId !== p.blockId) setEdit(null);
        else if (!editId) { const b = blockById(p.blockId); if (b) o.onTap(b); }
      } else if (editId) {
        setEdit(null);
      }
      return;
    }
    cancelPress();
  }
  body.addEventListener('pointerup', (e) => finish(e, false));
  body.addEventListener('pointercancel', (e) => finish(e, true));
  // While selecting or resizing, the finger draws; it must not scroll the page.
  body.addEventListener('touchmove', (e) => { if (selection || resize) e.preventDefault(); }, { passive: false });
  body.addEventListener('contextmenu', (e) => {
    e.preventDefault();
    const blockEl = /** @type {HTMLElement|null} */ (/** @type {HTMLElement} */ (e.target).closest('.sched-block'));
    if (!press && blockEl && e.button !== 2) setEdit(blockEl.dataset.blockId ?? null);
  });

  // Keyboard: the click a button gets from Enter or Space has detail 0; pointer clicks are handled above.
  body.addEventListener('click', (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    const del = target.closest('.sched-delete');
    const blockEl = /** @type {HTMLElement|null} */ (target.closest('.sched-block'));
    const b = blockEl ? blockById(/** @type {string} */ (blockEl.dataset.blockId)) : null;
    if (del && b) { e.stopPropagation(); o.onDelete(b); return; }
    if (e.detail === 0 && b && !target.closest('.sched-handle')) o.onTap(b);
  });
  body.addEventListener('keydown', (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    const blockEl = /** @type {HTMLElement|null} */ (target.closest('.sched-block'));
    const b = blockEl ? blockById(/** @type {string} */ (blockEl.dataset.blockId)) : null;
    if (!b) return;
    if (e.key === 'Escape' && editId) { e.stopPropagation(); setEdit(null); blockEl?.focus(); return; }
    if (e.key === 'Delete' || e.key === 'Backspace') { e.preventDefault(); o.onDelete(b); return; }
    if ((e.key === 'Enter' || e.key === ' ') && target.classList.contains('sched-delete')) { e.preventDefault(); o.onDelete(b); return; }
    const handle = target.closest('.sched-handle');
    if (handle && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
      e.preventDefault();
      const step = e.key === 'ArrowUp' ? -1 : 1;
      const t = taken(b.weekday, b.id);
      let start = b.startSlot;
      let end = b.endSlot;
      if (/** @type {HTMLElement} */ (handle).dataset.edge === 'start') start = Math.max(0, Math.min(end - 1, start + step));
      else end = Math.min(SLOTS, Math.max(start + 1, end + step));
      for (let s = start; s < end; s++) if (t[s]) return;
      if (start !== b.startSlot || end !== b.endSlot) o.onResize(b, start, end);
    }
  });

  const api = {
    el: root,
    render,
    get editing() { return editId; },
    /** Leaves edit mode (after the block changed or went away). */
    stopEditing() { editId = null; },
    /** Keeps edit mode on a block across a re-render. @param {string|null} id */
    edit(id) { setEdit(id); },
  };
  render();
  return api;
}
