// The indoor map's colours, from rooms.css (light and dark), for the canvas.

import { onThemeChange } from '../shell/theme.js';

const NAMES = ['building', 'building-stroke', 'building-open', 'unit', 'unit-stroke', 'walkway', 'restroom', 'vertical',
  'nonpublic', 'room-selected', 'door', 'route', 'route-other', 'label', 'label-halo'];
/** @type {Record<string, string>} */
let colours = {};

function read() {
  const style = getComputedStyle(document.documentElement);
  colours = Object.fromEntries(NAMES.map((n) => [n, style.getPropertyValue(`--rooms-${n}`).trim()]));
}
onThemeChange(read);

export function roomColours() {
  if (!colours.unit) read();
  return colours;
}

/** A unit's fill by its IMDF category. @param {string|undefined} category */
export function unitFill(category) {
  const c = roomColours();
  if (!category) return c.unit;
  if (category === 'walkway') return c.walkway;
  if (category.startsWith('restroom')) return c.restroom;
  if (['stairs', 'elevator', 'escalator', 'ramp', 'steps'].includes(category)) return c.vertical;
  if (['nonpublic', 'structure', 'shaft', 'opentobelow'].includes(category)) return c.nonpublic;
  return c.unit;
}
