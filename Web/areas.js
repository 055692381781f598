// The areas of the app, in the order the navigation shows them. An area is listed here once it
// exists (the navigation never offers something not built yet); a new area adds one line:
//   id, title (the navigation's label), home (its first path), match (the paths it owns),
//   overlay (it opens over the map area the person came from), load (its area module, which
//   exports start(shell) and adds its layers to the shared map),
//   boot (started when the app opens; any other area starts the first time it is shown, so a
//   first visit loads only what its first screen needs: scripts/web-modules preloads the
//   modules the boot areas import),
//   running (work it does while another area is shown, told without loading it: then it starts
//   once the first screen is usable, and again when signing in or out gives it some).

import { signedIn } from './accounts/session.js';
import { recording } from './trails/hike-record.js';
import { reporting } from './planner/leave-setting.js';

/** @typedef {{id: string, title: string, home: string, match: RegExp, overlay?: boolean, boot?: boolean, running?: () => boolean, load: () => Promise<any>}} AreaEntry */

/** @type {AreaEntry[]} */
export const AREAS = [
  { id: 'parking', title: 'Parking', home: '/', match: /^\/(?:lots\/[^/]+\/?)?$/, boot: true, load: () => import('./parking/area.js') },
  { id: 'rooms', title: 'Rooms', home: '/rooms', match: /^\/rooms(?:\/|$)/, load: () => import('./rooms/area.js') },
  // Signed in: unread messages on its tab, location shared with friends; a hike being recorded.
  { id: 'trails', title: 'Trails', home: '/trails', match: /^\/trails(?:\/|$)/, running: () => signedIn() || recording(), load: () => import('./trails/area.js') },
  // Its position for time to leave, when switched on in Travel.
  { id: 'plan', title: 'Plan', home: '/plan', match: /^\/plan(?:\/|$)/, running: reporting, load: () => import('./planner/area.js') },
  // The bell and the person's tab on every screen.
  { id: 'me', title: 'You', home: '/me', match: /^\/me(?:\/|$)/, overlay: true, boot: true, load: () => import('./accounts/area.js') },
];
