// Rooms as an area of the shell: its layers on the shared map and its paths under /rooms.

import { startRooms } from './index.js';
import { record } from '../shell/router.js';

/** @param {{map: any, services: Record<string, any>}} shell */
export function start(shell) {
  const rooms = startRooms({ map: shell.map, record });
  shell.services.rooms = rooms;
  let loaded = false;
  return {
    async ready() {
      // The app opened on a Rooms path keeps the splash until the campuses are listed too; a
      // failure here leaves Parking usable.
      try { await rooms.ready(); loaded = true; } catch (err) { console.warn('rooms not loaded', err); }
    },
    /** @param {string} path */
    async show(path) {
      if (!loaded) { try { await rooms.ready(); loaded = true; } catch { /* the sheet says what to do */ } }
      await rooms.show(path);
    },
    hide() { rooms.hide(); },
  };
}
