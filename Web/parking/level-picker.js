// A floor switcher on the map, as indoor maps have, for the structure in the middle of the
// screen at spot zoom. Structures stack their levels at the same ground positions, so only
// one level's spots can be drawn at a time; ground level is the default.

/**
 * @param {{store: ReturnType<typeof import('./store.js').createParkingStore>,
 *          onPick: (lotId: string, level: number) => void}} o
 */
export function createLevelPicker(o) {
  const el = /** @type {HTMLElement} */ (document.getElementById('level-picker'));
  let shown = '';

  function render(lot) {
    const current = o.store.levelOf(lot.id);
    const title = document.createElement('div');
    title.className = 'level-title';
    title.textContent = lot.code;
    title.setAttribute('aria-hidden', 'true');
    const buttons = [];
    for (let lv = lot.levels - 1; lv >= 0; lv--) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = lv === 0 ? 'G' : String(lv + 1);
      b.dataset.level = String(lv);
      b.setAttribute('aria-label', `${lot.name}, ${lv === 0 ? 'ground level' : `level ${lv + 1}`}`);
      b.setAttribute('aria-pressed', String(lv === current));
      b.addEventListener('click', () => o.onPick(lot.id, lv));
      buttons.push(b);
    }
    el.replaceChildren(title, ...buttons);
    el.dataset.lotId = lot.id;
    el.setAttribute('aria-label', `Level of ${lot.name}`);
  }

  return {
    /** @param {any|null} lot the structure to offer levels for, or null to hide */
    show(lot) {
      if (!lot) {
        if (!el.hidden) { el.hidden = true; shown = ''; el.dataset.lotId = ''; }
        return;
      }
      const key = `${lot.id}:${o.store.levelOf(lot.id)}`;
      if (key !== shown) { render(lot); shown = key; }
      el.hidden = false;
    },
  };
}
