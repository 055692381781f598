// Operate › Changes (PRK-1): what the site's operators changed, newest first, with who and
// when. Times are the site's wall clock (its lots' hours are read in it) in the person's
// locale, grouped by the site's days.

import { el, button } from './forms.js';
import { problemText } from '../shell/api.js';
import { zonedParts, addDays, dayText, clockText, zoneName } from '../shell/zoned-time.js';
import { listSiteChanges } from './api.js';
import { statusLine } from './operate-parts.js';

/**
 * @param {import('./operate-parts.js').OperateState} shared
 * @returns {{el: HTMLElement, show: () => void}}
 */
export function changesSection(shared) {
  const { site } = shared;
  const tz = site.timeZone;
  const status = statusLine();
  const list = el('div', 'op-changes');
  list.dataset.testid = 'op-changes';

  function dayHeading(/** @type {string} */ date, /** @type {Date} */ at) {
    const today = zonedParts(new Date(), tz).date;
    if (date === today) return 'Today';
    if (date === addDays(today, -1)) return 'Yesterday';
    if (date.slice(0, 4) !== today.slice(0, 4)) return at.toLocaleDateString(undefined, { timeZone: tz, weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' });
    return dayText(at, tz);
  }

  /** @param {{at: string, by?: string, summary: string}[]} changes */
  function draw(changes) {
    /** @type {Map<string, HTMLElement>} */
    const days = new Map();
    const blocks = [];
    for (const c of changes) {
      const at = new Date(c.at);
      const date = zonedParts(at, tz).date;
      let ul = days.get(date);
      if (!ul) {
        ul = el('ul', 'op-list');
        days.set(date, ul);
        blocks.push(el('h4', 'op-subhead', dayHeading(date, at)), ul);
      }
      const li = el('li', 'op-change',
        el('span', 'op-change-what', c.summary),
        el('span', 'muted small', `${c.by ? `by ${c.by}` : 'by an erased account'} · ${clockText(at, tz)}`));
      ul.append(li);
    }
    list.replaceChildren(...blocks);
  }

  async function load() {
    try {
      const r = await listSiteChanges(site.id, 50);
      if (!shared.alive()) return;
      draw(r.changes);
      status.textContent = r.changes.length ? ''
        : 'Nothing changed yet. Changes to lots, spots and operators appear here with who made them and when.';
    } catch (err) {
      if (shared.alive()) status.textContent = problemText(err);
    }
  }

  const refresh = button('Refresh', () => load(), 'link-button');
  refresh.dataset.action = 'refresh-changes';
  const head = el('div', 'op-subhead-row', el('p', 'muted small', `Newest first, at the site’s time (${zoneName(tz)}).`), refresh);
  const root = el('div', 'op-section', head, status, list);
  return {
    el: root,
    show() {
      if (!list.childElementCount) status.textContent = 'Loading…';
      load();
    },
  };
}
