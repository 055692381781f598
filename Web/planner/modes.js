// How each travel mode looks, on the map and in the lists: a colour (from planner.css, light
// and dark) and a dash pattern, so two modes differ even to someone who cannot tell the
// colours apart; the lists name the mode in words as well.

import { onThemeChange } from '../shell/theme.js';
import { MODES } from './format.js';

/** Dash patterns in CSS pixels for a line 5 px wide (round caps make the dots). */
export const DASHES = { walk: [0.5, 9], bike: [12, 7], transit: [], car: [22, 6, 3, 6], rideShare: [5, 5], none: [2, 5] };

/** @type {Record<string, string>} */
let colours = {};
function read() {
  const style = getComputedStyle(document.documentElement);
  colours = Object.fromEntries([...MODES, 'none', 'halo', 'stop-ring'].map((n) => [n, style.getPropertyValue(`--plan-${n}`).trim()]));
}
onThemeChange(read);

/** The canvas colours: one per mode ("none": no way there), the halo under lines and the ring of a stop. */
export function modeColours() {
  if (!colours.walk) read();
  return colours;
}

const NS = 'http://www.w3.org/2000/svg';

/** A short sample of a mode's line, for legends and leg rows (decorative: the word is beside it). */
export function modeSample(/** @type {string} */ mode, width = 34) {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} 10`);
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', '10');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', `plan-mode-sample mode-${mode}`);
  const line = document.createElementNS(NS, 'line');
  line.setAttribute('x1', '3');
  line.setAttribute('x2', String(width - 3));
  line.setAttribute('y1', '5');
  line.setAttribute('y2', '5');
  line.setAttribute('stroke-width', '5');
  line.setAttribute('stroke-linecap', 'round');
  if (DASHES[mode]?.length) line.setAttribute('stroke-dasharray', DASHES[mode].join(' '));
  svg.append(line);
  return svg;
}
