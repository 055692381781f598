// Every lot as a real button, hidden until focused: keyboard and screen-reader users reach the
// same cards the pins open, without having to find a pin on a canvas.

import { el } from '../shell/dom.js';
import { number } from './format.js';

/**
 * @param {{store: ReturnType<typeof import('./store.js').createParkingStore>, onOpen: (lotId: string) => void}} o
 */
export function createLotList(o) {
  const ul = /** @type {HTMLElement} */ (document.getElementById('lot-list'));
  const buttons = new Map();

  function label(lot) {
    const occ = o.store.state.occupancy.get(lot.id);
    if (!occ) return `${lot.name} (${lot.code})`;
    const taken = occ.occupied + occ.held + occ.booked;
    return `${lot.name} (${lot.code}): ${number(taken)} of ${number(occ.total)} taken, ${number(occ.free)} free`;
  }

  function build() {
    buttons.clear();
    ul.replaceChildren(...o.store.state.lots.map((lot) => {
      const b = el('button', { type: 'button', dataset: { lotId: lot.id }, on: { click: () => o.onOpen(lot.id) } }, label(lot));
      buttons.set(lot.id, b);
      return el('li', null, b);
    }));
  }

  o.store.on('snapshot', build);
  o.store.on('change', (lotId) => {
    const lot = o.store.state.lotById.get(lotId);
    const b = buttons.get(lotId);
    if (lot && b) b.textContent = label(lot);
  });
  return { build };
}
