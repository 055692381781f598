// The areas of the app, in the order the navigation shows them. An area is listed here once it
// exists (the navigation never offers something not built yet); a new area adds one line:
//   id, title (the navigation's label), home (its first path), match (the paths it owns),
//   overlay (it opens over the map area the person came from), load (its area module, which
//   exports start(shell) and adds its layers to the shared map).

/** @typedef {{id: string, title: string, home: string, match: RegExp, overlay?: boolean, load: () => Promise<any>}} AreaEntry */

/** @type {AreaEntry[]} */
export const AREAS = [
  { id: 'parking', title: 'Parking', home: '/', match: /^\/(?:lots\/[^/]+\/?)?$/, load: () => import('./parking/area.js') },
  { id: 'rooms', title: 'Rooms', home: '/rooms', match: /^\/rooms(?:\/|$)/, load: () => import('./rooms/area.js') },
  { id: 'trails', title: 'Trails', home: '/trails', match: /^\/trails(?:\/|$)/, load: () => import('./trails/area.js') },
  { id: 'plan', title: 'Plan', home: '/plan', match: /^\/plan(?:\/|$)/, load: () => import('./planner/area.js') },
  { id: 'me', title: 'You', home: '/me', match: /^\/me(?:\/|$)/, overlay: true, load: () => import('./accounts/area.js') },
];
