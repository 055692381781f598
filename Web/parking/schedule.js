// Weekly Schedule in the Accounts panel (PRK-16, /me/schedule): the grid of the week in the
// campus's time, each block coloured by the server's advice (green: usually room at the start;
// yellow: usually 85 % full or more; red: a permit you lack is required), fetched fresh every
// time the screen opens. Works signed out with the device identity (ACC-8).

import { el, button, errorLine } from '../accounts/forms.js';
import { getSchedule, putBlock, deleteBlock, lotAdvice } from './api.js';
import { createScheduleGrid, SLOTS } from './schedule-grid.js';
import { slotTime, blockWhen } from './schedule-format.js';
import { problemText, newKey, OfflineError } from '../shell/api.js';
import { writes, onSent } from '../accounts/outbox.js';
import { confirm } from '../shell/dialog.js';
import { toast } from '../shell/toast.js';
import { WEEKDAYS, siteNow } from './format.js';
import { zoneName } from '../shell/zoned-time.js';
import { eitherPermit } from './permit-words.js';
import { savedNote } from '../accounts/saved-reads.js';

/** @typedef {import('./schedule-grid.js').Block} Block */

const NO_LOT = { level: /** @type {const} */ ('none'), reason: 'Choose a lot.' };
const ADVICE_LATER = 'Advice comes when Waymark can be reached.';

/** A block as drawn while its write waits to be sent: the server's advice comes once it is. @param {Omit<Block, 'advice'>} b @returns {Block} */
const waitingBlock = (b) => ({ ...b, advice: b.lotId ? { level: 'unknown', reason: ADVICE_LATER } : NO_LOT, waiting: true });

/**
 * The schedule as the person left it: the server's copy with the writes still waiting to be sent
 * laid over it, oldest first, each block so drawn marked as waiting.
 * @param {Block[]} saved @returns {Block[]}
 */
export function withWaiting(saved) {
  const out = new Map(saved.map((b) => [b.id, b]));
  for (const w of writes()) {
    if (w.kind !== 'schedule' || w.state !== 'pending') continue;
    const id = w.ref?.blockId;
    if (w.method === 'DELETE') { out.delete(id); continue; }
    const was = out.get(id);
    const lotName = was && was.lotId === w.json.lotId ? was.lotName : w.ref?.lotName;
    out.set(id, waitingBlock({ id, ...w.json, lotName }));
  }
  return [...out.values()];
}

const LEVEL_TEXT = { green: 'Usually room', yellow: 'Usually 85 % full or more', red: 'Needs a permit you lack', unknown: 'No history yet', none: 'No lot chosen' };

/** @param {import('../accounts/index.js').AccountsContext} ctx @returns {import('../accounts/panel.js').View} */
export function scheduleView(ctx) {
  /** @type {Block[]} */
  let blocks = [];
  let loaded = false;
  let alive = true;
  let scrolled = false;
  let timeZone = 'UTC';
  /** @type {ReturnType<typeof createScheduleGrid>|null} */
  let grid = null;
  const error = errorLine();
  const status = el('p', 'save-status');
  status.setAttribute('role', 'status');

  let stopSent = () => {};
  const sorted = () => blocks.sort((a, b) => a.weekday - b.weekday || a.startSlot - b.startSlot);
  const put = (/** @type {Block} */ b) => { blocks = blocks.filter((x) => x.id !== b.id); blocks.push(b); sorted(); };

  async function load() {
    try {
      const site = await ctx.site();
      timeZone = site?.timeZone ?? 'UTC';
      const r = await getSchedule();
      if (!alive) return;
      blocks = withWaiting(r.blocks);
      loaded = true;
      error.clear();
      status.textContent = savedNote(r) || (blocks.length ? '' : 'No blocks yet.');
      grid?.el.setAttribute('data-loaded', 'true');
      grid?.render();
      tzLine.textContent = `Times are campus time (${zoneName(timeZone)}).`;
    } catch (err) {
      if (alive) error.show(problemText(err));
    }
  }

  async function create(/** @type {number} */ weekday, /** @type {number} */ startSlot, /** @type {number} */ endSlot) {
    error.clear();
    // The id is made here so that a block added offline can be given its lot, moved or deleted
    // before it reaches the server.
    const id = newKey();
    const when = blockWhen({ weekday, startSlot, endSlot });
    try {
      const r = await putBlock(id, { weekday, startSlot, endSlot }, `Schedule: add ${when}`);
      const b = r.sent ? r.answer : waitingBlock({ id, weekday, startSlot, endSlot });
      put(b);
      status.textContent = r.sent ? '' : `Offline: ${when} is added when Waymark can be reached`;
      grid?.render();
      ctx.panel.push(lotPickerView(ctx, b, (updated) => put(updated)));
    } catch (err) {
      error.show(problemText(err));
      grid?.render();
    }
  }

  async function resize(/** @type {Block} */ b, /** @type {number} */ startSlot, /** @type {number} */ endSlot) {
    error.clear();
    try {
      const next = { ...b, startSlot, endSlot };
      const r = await putBlock(b.id, { weekday: b.weekday, startSlot, endSlot, lotId: b.lotId }, `Schedule: ${blockWhen(next)}`, b.lotName);
      const updated = r.sent ? r.answer : waitingBlock(next);
      put(updated);
      status.textContent = r.sent ? `${blockWhen(updated)} saved` : `Offline: ${blockWhen(updated)} is sent when Waymark can be reached`;
    } catch (err) {
      error.show(problemText(err));
    }
    const editing = grid?.editing ?? null;
    grid?.render();
    if (editing) grid?.edit(editing);
  }

  async function remove(/** @type {Block} */ b) {
    const sure = await confirm({
      name: 'delete-block', title: 'Delete this block?',
      message: `${blockWhen(b)}${b.lotName ? ` · ${b.lotName}` : ''} will be removed from your week.`,
      confirm: 'Delete', danger: true,
    });
    if (!sure) return;
    error.clear();
    try {
      const r = await deleteBlock(b.id, `Schedule: delete ${blockWhen(b)}`);
      blocks = blocks.filter((x) => x.id !== b.id);
      grid?.stopEditing();
      grid?.render();
      toast(r.sent ? 'Block deleted' : 'Offline: the block is deleted when Waymark can be reached');
    } catch (err) {
      error.show(problemText(err));
    }
  }

  const tzLine = el('p', 'muted small');

  return {
    name: 'schedule',
    title: 'Weekly Schedule',
    leave() { alive = false; stopSent(); },
    render() {
      alive = true;
      stopSent();
      // A waiting write that went through: read the schedule again for the server's advice.
      stopSent = onSent((w) => { if (w.kind === 'schedule' && alive) load(); });
      grid = createScheduleGrid({
        blocks: () => blocks,
        today: () => siteNow(timeZone).weekday,
        shortName: (b) => (b.lotId ? ctx.lotCode(b.lotId) : null),
        onCreate: create,
        onTap: (b) => ctx.panel.push(lotPickerView(ctx, b, (updated) => put(updated))),
        onResize: resize,
        onDelete: remove,
      });
      if (loaded) grid.el.dataset.loaded = 'true';
      const help = el('p', 'muted small', 'Long-press an empty time and drag to add a block. Tap a block to choose its lot; long-press it to change its times or delete it.');
      const editHelp = el('p', 'visually-hidden', 'Drag the handles or use the arrow keys to change the times. Delete removes the block. Escape ends editing.');
      editHelp.id = 'sched-edit-help';
      const legend = el('ul', 'sched-legend');
      legend.setAttribute('aria-label', 'Colours');
      for (const level of /** @type {const} */ (['green', 'yellow', 'red', 'unknown', 'none'])) {
        const li = el('li', '', LEVEL_TEXT[level]);
        li.prepend(el('span', `swatch ${level}`));
        legend.append(li);
      }
      if (!scrolled) {
        scrolled = true;
        // Start the day at 7 AM, where most blocks are.
        requestAnimationFrame(() => {
          const scroller = grid?.el.closest('.panel-body');
          const col = grid?.el.querySelector('.sched-col');
          if (scroller && col) scroller.scrollTop += col.getBoundingClientRect().top - scroller.getBoundingClientRect().top + (col.clientHeight / SLOTS) * 14 - 40;
        });
      }
      load();
      return [help, tzLine, legend, error.el, status, grid.el, editHelp, addForm()];
    },
  };

  /** The same as long-press and drag, for keyboards and screen readers. */
  function addForm() {
    const details = el('details', 'sched-add');
    details.append(el('summary', '', 'Add a block with the keyboard'));
    const row = el('div', 'sched-add-row');
    const select = (/** @type {string} */ label, /** @type {[string, string][]} */ options, /** @type {string} */ value) => {
      const wrap = el('label', 'field inline', label);
      const s = /** @type {HTMLSelectElement} */ (el('select'));
      for (const [v, t] of options) { const o = /** @type {HTMLOptionElement} */ (el('option', '', t)); o.value = v; s.append(o); }
      s.value = value;
      wrap.append(s);
      row.append(wrap);
      return s;
    };
    const day = select('Day', WEEKDAYS.map((d, i) => [String(i + 1), d]), '2');
    const from = select('From', Array.from({ length: SLOTS }, (_, i) => [String(i), slotTime(i)]), '18');
    const to = select('To', Array.from({ length: SLOTS }, (_, i) => [String(i + 1), slotTime(i + 1)]), '20');
    const add = button('Add', () => {
      const s = Number(from.value);
      const e = Number(to.value);
      if (e <= s) { error.show('The end must be after the start.'); return; }
      create(Number(day.value), s, e);
    }, 'acc-button primary');
    details.append(row, add);
    return details;
  }
}

/**
 * Choose a lot for a block: every lot of the campus with its advice for that time, best first;
 * yellow and red ones carry a warning mark and say why.
 * @param {import('../accounts/index.js').AccountsContext} ctx @param {Block} block @param {(b: Block) => void} onChosen
 * @returns {import('../accounts/panel.js').View}
 */
export function lotPickerView(ctx, block, onChosen) {
  let alive = true;
  return {
    name: 'lot-picker',
    title: 'Choose a Lot',
    leave() { alive = false; },
    render() {
      const when = el('p', 'lead', blockWhen(block));
      const note = el('p', 'muted small');
      note.setAttribute('role', 'status');
      const error = errorLine();
      const list = el('ul', 'lot-choices');
      list.setAttribute('aria-busy', 'true');
      list.append(el('li', 'muted', 'Checking the lots…'));
      /** @type {any} the site whose permits name the advice's */
      let site = null;
      (async () => {
        try {
          site = await ctx.site();
          const q = new URLSearchParams({ siteId: site.id, weekday: String(block.weekday), startSlot: String(block.startSlot), endSlot: String(block.endSlot) });
          const r = await lotAdvice(q).catch((err) => {
            if (!(err instanceof OfflineError)) throw err;
            // Offline the advice cannot be worked out, but the lots on the map can still be chosen.
            const lots = ctx.lots();
            if (!lots.length) throw err;
            note.textContent = `Offline: ${ADVICE_LATER}`;
            return { lots: [...lots].sort((a, b) => a.name.localeCompare(b.name))
              .map((l) => ({ lotId: l.id, lotName: l.name, advice: { level: 'unknown', reason: '' } })) };
          });
          if (!alive) return;
          list.removeAttribute('aria-busy');
          list.replaceChildren(...r.lots.map((/** @type {any} */ lot) => choice(lot)));
          if (block.lotId) list.append(noLot());
        } catch (err) {
          if (alive) { list.replaceChildren(); error.show(problemText(err)); }
        }
      })();

      function choice(/** @type {{lotId: string, lotName: string, advice: Block['advice']}} */ lot) {
        const li = el('li');
        const level = lot.advice.level;
        const b = /** @type {HTMLButtonElement} */ (el('button', `lot-choice ${level}`));
        b.type = 'button';
        b.dataset.lotId = lot.lotId;
        b.dataset.level = level;
        if (lot.lotId === block.lotId) b.setAttribute('aria-current', 'true');
        const mark = el('span', `warn-mark ${level === 'yellow' || level === 'red' ? level : 'ok'}`, level === 'yellow' || level === 'red' ? '!' : '');
        mark.setAttribute('aria-hidden', 'true');
        const text = el('span', 'lot-choice-text');
        text.append(el('span', 'lot-choice-name', lot.lotName));
        const why = [lot.advice.reason];
        if (level === 'red' && lot.advice.requiredPermits?.length && !/permit/i.test(lot.advice.reason)) {
          why.push(`Permit: ${eitherPermit(site, lot.advice.requiredPermits)}`);
        }
        text.append(el('span', 'lot-choice-reason', why.filter(Boolean).join(' · ')));
        // Screen readers hear the warning the "!" mark shows; aria-description is not valid ARIA 1.2.
        if (level === 'yellow' || level === 'red') text.prepend(el('span', 'visually-hidden', level === 'red' ? 'Warning: permit required. ' : 'Warning: usually nearly full. '));
        b.append(mark, text);
        b.addEventListener('click', () => pick(lot.lotId, b, lot.lotName));
        li.append(b);
        return li;
      }

      function noLot() {
        const li = el('li');
        const b = button('No lot', () => pick(undefined, b), 'lot-choice none');
        li.append(b);
        return li;
      }

      async function pick(/** @type {string|undefined} */ lotId, /** @type {HTMLButtonElement} */ b, lotName = '') {
        error.clear();
        b.setAttribute('aria-busy', 'true');
        try {
          const r = await putBlock(block.id, { weekday: block.weekday, startSlot: block.startSlot, endSlot: block.endSlot, lotId },
            `Schedule: ${blockWhen(block)} · ${lotName || 'no lot'}`, lotName || undefined);
          onChosen(r.sent ? r.answer : waitingBlock({ ...block, lotId, lotName: lotName || undefined }));
          if (!r.sent) toast('Offline: the lot is saved when Waymark can be reached');
          if (alive) ctx.panel.back();
        } catch (err) {
          error.show(problemText(err));
        } finally {
          b.removeAttribute('aria-busy');
        }
      }
      return [when, note, error.el, list];
    },
  };
}
