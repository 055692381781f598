// The app's feature modules (Parking today; Wayfinding, Trails and Planner later) share one
// map and one toolbar. A module is listed in the switcher only once it exists, so the shell
// never shows an empty screen for something not built yet.

/**
 * @typedef {object} Module
 * @property {string} id
 * @property {string} title
 * @property {(ctx: {map: import('../map/index.js').WaymarkMap}) => Promise<void>|void} start
 */

/** @type {Module[]} */
const modules = [];

/** @param {Module} m */
export function register(m) { modules.push(m); }

export const list = () => [...modules];

/** Shows the module switcher when there is more than one module to switch between. */
export function renderSwitcher() {
  const nav = document.getElementById('modules');
  if (!nav) return;
  nav.hidden = modules.length < 2;
  nav.replaceChildren(...modules.map((m) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = m.title;
    b.dataset.module = m.id;
    return b;
  }));
}
