// The elevation profile as a small SVG chart: the cleaned profile the server measured, filled
// below, with the lowest and highest points and the length on its axes in the person's units.

import { height, length } from './format.js';

const NS = 'http://www.w3.org/2000/svg';

/** @param {string} tag @param {Record<string, string|number>} attrs @param {string} [text] */
function svg(tag, attrs, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text != null) node.textContent = text;
  return node;
}

/**
 * @param {number[][]} profile [metres along, elevation] pairs
 * @param {string} colour the trail's tier colour
 * @returns {SVGSVGElement|null}
 */
export function profileChart(profile, colour) {
  if (!profile || profile.length < 2) return null;
  const W = 320, H = 130, left = 58, right = 8, top = 10, bottom = 22;
  const end = profile[profile.length - 1][0] || 1;
  const lows = Math.min(...profile.map((p) => p[1]));
  const highs = Math.max(...profile.map((p) => p[1]));
  // Flat trails still get some height, so ten metres of rolling ground do not look like a cliff.
  const span = Math.max(highs - lows, 40);
  const base = lows - (span - (highs - lows)) / 2;
  const x = (m) => left + (m / end) * (W - left - right);
  const y = (e) => top + (1 - (e - base) / span) * (H - top - bottom);
  const line = profile.map(([m, e], i) => `${i ? 'L' : 'M'}${x(m).toFixed(1)} ${y(e).toFixed(1)}`).join(' ');
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'trail-profile', role: 'img',
    'aria-label': `Elevation profile: from ${height(lows)} to ${height(highs)} over ${length(end)}` });
  chart.append(
    svg('path', { d: `${line} L${x(end)} ${H - bottom} L${left} ${H - bottom} Z`, fill: colour, opacity: 0.25 }),
    svg('path', { d: line, fill: 'none', stroke: colour, 'stroke-width': 2.5, 'stroke-linejoin': 'round' }),
    svg('line', { x1: left, x2: W - right, y1: H - bottom, y2: H - bottom, class: 'axis' }),
    svg('text', { x: left - 6, y: y(highs) + 4, 'text-anchor': 'end', class: 'tick' }, height(highs)),
    svg('text', { x: left - 6, y: y(lows) + 4, 'text-anchor': 'end', class: 'tick' }, height(lows)),
    svg('text', { x: left, y: H - 6, class: 'tick' }, '0'),
    svg('text', { x: W - right, y: H - 6, 'text-anchor': 'end', class: 'tick' }, length(end)),
  );
  return chart;
}
