// A floor switcher on the map, as indoor maps have, for the structure in the middle of the
// screen at spot zoom. Structures stack their levels at the same ground positions, so only
// one level's spots can be drawn at a time; ground level is the default.

import { el } from '../shell/dom.js';

/**
 * @param {{store: ReturnType<typeof import('./store.js').createParkingStore>,
 *          onPick: (lotId: string, level: number) => void}} o
 */
export function createLevelPicker(o) {
  const root = /** @type {HTMLElement} */ (document.getElementById('level-picker'));
  let shown = '';

  function render(lot) {
    const current = o.store.levelOf(lot.id);
    const title = el('div', { class: 'level-title', 'aria-hidden': 'true' }, lot.code);
    const buttons = [];
    for (let lv = lot.levels - 1; lv >= 0; lv--) {
      buttons.push(el('button', {
        type: 'button', dataset: { level: String(lv) }, 'aria-pressed': String(lv === current),
        'aria-label': `${lot.name}, ${lv === 0 ? 'ground level' : `level ${lv + 1}`}`, on: { click: () => o.onPick(lot.id, lv) },
      }, lv === 0 ? 'G' : String(lv + 1)));
    }
    root.replaceChildren(title, ...buttons);
    root.dataset.lotId = lot.id;
    root.setAttribute('aria-label', `Level of ${lot.name}`);
  }

  return {
    /** @param {any|null} lot the structure to offer levels for, or null to hide */
    show(lot) {
      if (!lot) {
        if (!root.hidden) { root.hidden = true; shown = ''; root.dataset.lotId = ''; }
        return;
      }
      const key = `${lot.id}:${o.store.levelOf(lot.id)}`;
      if (key !== shown) { render(lot); shown = key; }
      root.hidden = false;
    },
  };
}
