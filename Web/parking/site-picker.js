// Which parking site the map shows, when this Waymark has several (PRK-1; UniPark: several
// universities): the site chip opens the list, nearest first when the browser already lets us
// know where the person is; the choice is kept in this browser and the app opens on it. A first
// visit opens on the nearest site when the position is known, else on the first by name.

import { choose } from '../shell/dialog.js';
import { cachedMe } from '../accounts/session.js';
import { defaultUnits } from '../accounts/units.js';
import { metresBetween, distanceText } from './hold-format.js';

const KEY = 'waymark.parking.site';

/** The site the person chose last, if any. */
export function chosenSite() {
  try { return localStorage.getItem(KEY); } catch { return null; }
}

/** Where the person is, only if they already allowed it: the list never asks by itself. */
async function knownPosition() {
  try {
    const permission = await navigator.permissions?.query({ name: 'geolocation' });
    if (permission?.state !== 'granted') return null;
    return await new Promise((resolve) => navigator.geolocation.getCurrentPosition(
      (p) => resolve({ lat: p.coords.latitude, lon: p.coords.longitude }), () => resolve(null),
      { maximumAge: 10 * 60_000, timeout: 3000 }));
  } catch {
    return null;
  }
}

/**
 * The site nearest to the person, when the browser already lets us know where they are; nil
 * otherwise, and never a permission prompt on opening the app.
 * @param {any[]} sites
 */
export async function nearestSite(sites) {
  if (sites.length < 2) return null;
  const here = await knownPosition();
  if (!here) return null;
  let best = null, bestMetres = Infinity;
  for (const site of sites) {
    const m = metresBetween(here, { lat: site.center.latitude, lon: site.center.longitude });
    if (m < bestMetres) { best = site; bestMetres = m; }
  }
  return best;
}

/**
 * Makes the site chip a button when there is a choice to make.
 * @param {{chip: HTMLElement, sites: () => any[], current: () => any, reload?: () => void}} o
 */
export function createSitePicker(o) {
  if (o.sites().length < 2) return;
  o.chip.setAttribute('role', 'button');
  o.chip.tabIndex = 0;
  o.chip.dataset.picker = 'on';
  o.chip.setAttribute('aria-label', `${o.current().name}: choose another parking site`);
  const open = async () => {
    const here = await knownPosition();
    const units = cachedMe()?.units?.distance ?? defaultUnits().distance;
    const listed = o.sites().map((site) => ({
      site, metres: here ? metresBetween(here, { lat: site.center.latitude, lon: site.center.longitude }) : null,
    }));
    listed.sort((a, b) => (a.metres ?? 0) - (b.metres ?? 0) || a.site.name.localeCompare(b.site.name));
    const picked = await choose({
      name: 'site-picker',
      title: 'Parking sites',
      message: here ? 'Nearest first.' : 'Allow your location on the map to see the nearest first.',
      actions: [...listed.map(({ site, metres }) => ({
        id: site.id,
        label: metres == null ? site.name : `${site.name} · ${distanceText(metres, units)}`,
        kind: /** @type {'primary'|'plain'} */ (site.id === o.current().id ? 'primary' : 'plain'),
      })), { id: '', label: 'Cancel' }],
    });
    if (!picked || picked === o.current().id) return;
    try { localStorage.setItem(KEY, picked); } catch { /* storage off: the choice lasts this visit */ }
    // A lot open on the old campus is not on the new one: reopen on the campus itself.
    if (location.pathname.startsWith('/lots/')) history.replaceState(history.state, '', '/');
    (o.reload ?? (() => location.reload()))();
  };
  o.chip.addEventListener('click', open);
  o.chip.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); open(); } });
}
