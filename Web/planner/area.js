// The Plan as an area of the shell: its sheet and its layers on the shared map, and its paths
// under /plan. Nothing is read until the Plan is first opened: a person who never plans never
// gets a device identity or a calendar for it.

import { startPlanner } from './index.js';
import { resumeReporting } from './leave-position.js';

/** @param {{map: any, services: Record<string, any>}} shell */
export function start(shell) {
  const planner = startPlanner({ map: shell.map });
  shell.services.planner = planner;
  // Only when the person switched it on in Travel.
  resumeReporting();
  return {
    /** @param {string} path */
    show(path) { planner.show(path); },
    /** Another area is shown: one that opens over the map (You) keeps the Plan under it. */
    hide(next) { if (!next?.overlay) planner.hide(); },
  };
}
