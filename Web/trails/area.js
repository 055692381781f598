// Trails as an area of the shell: its sheet, its layers on the shared map, its paths under /trails.

import { startTrails } from './index.js';
import { go } from '../shell/router.js';

/** @param {{map: any, services: Record<string, any>}} shell */
export function start(shell) {
  const trails = startTrails({ map: shell.map, go });
  shell.services.trails = trails;
  return {
    /** @param {string} path */
    show(path) { return trails.show(path); },
    hide(next) { if (!next?.overlay) trails.hide(); },
  };
}
