// A transit leg on the timetable (PLN-5): which vehicles, from where and when, in words a rider
// uses ("Tram 33 from Piazza Leonardo da Vinci at 8:42 AM"), and the journey step by step with
// each line's own colour as a badge.

import { el } from '../shell/dom.js';
import { clock, duration, distance } from './format.js';

const KINDS = { tram: 'Tram', metro: 'Metro', rail: 'Train', bus: 'Bus', trolleybus: 'Trolleybus', ferry: 'Ferry',
  cableTram: 'Cable car', aerialLift: 'Cable car', funicular: 'Funicular', monorail: 'Monorail' };

/** "Tram 33", "Metro M2", "Train S2": how a rider names the vehicle. @param {any} route */
export function rideName(route) {
  const kind = KINDS[route.mode] ?? 'Line';
  return route.name.toLowerCase().startsWith(kind.toLowerCase()) ? route.name : `${kind} ${route.name}`;
}

/** The journey's first ride, or null when it is a walk the whole way. @param {any} journey */
export const firstRide = (journey) => journey?.legs.find((/** @type {any} */ l) => l.kind === 'ride') ?? null;

/** "Tram 33 from Piazza Leonardo da Vinci at 8:42 AM". @param {any} journey @param {string} tz */
export function firstRideText(journey, tz) {
  const r = firstRide(journey);
  return r ? `${rideName(r.route)} from ${r.from.name} at ${clock(r.leave, tz)}` : 'On foot the whole way';
}

/** "M2 · S2": the lines in order. @param {any} journey */
export const linesText = (journey) => journey.legs.filter((/** @type {any} */ l) => l.kind === 'ride').map((/** @type {any} */ l) => l.route.name).join(' · ');

/** A line's badge in its own colour, with a text colour that stays readable on it. @param {any} route */
export function lineBadge(route) {
  const badge = el('span', `plan-line-badge mode-${route.mode}`, route.name);
  if (route.colour && /^[0-9a-f]{6}$/i.test(route.colour)) {
    badge.style.background = `#${route.colour}`;
    badge.style.color = readableOn(route.colour);
  }
  return badge;
}

/** Black or white, whichever contrasts more with `hex` (WCAG relative luminance). @param {string} hex */
function readableOn(hex) {
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) ? '#000' : '#fff';
}

/** The journey step by step: walks with their length, rides with the line, direction, times and stops. @param {any} journey @param {string} tz */
export function journeySteps(journey, tz) {
  return el('ol', { class: 'plan-journey', 'aria-label': 'Step by step' }, journey.legs.map((/** @type {any} */ l) => {
    const minutes = Math.max(1, Math.round((Date.parse(l.arrive) - Date.parse(l.leave)) / 60000));
    if (l.kind === 'walk') {
      const to = l.to.name ? `to ${l.to.name}` : 'to your destination';
      const from = l.from.name && !l.to.name ? ` from ${l.from.name}` : '';
      return el('li', { class: 'plan-journey-walk', dataset: { kind: 'walk' } },
        el('span', 'plan-journey-time', clock(l.leave, tz)),
        el('span', 'plan-journey-text', `Walk ${duration(minutes)} (${distance(l.metres ?? 0)})${from} ${to}`));
    }
    const stops = l.stops === 1 ? '1 stop' : `${l.stops} stops`;
    return el('li', { class: 'plan-journey-ride', dataset: { kind: 'ride', line: l.route.name } },
      el('span', 'plan-journey-time', clock(l.leave, tz)),
      el('span', 'plan-journey-text', lineBadge(l.route),
        el('span', null, ` ${rideName(l.route)}${l.headsign ? ` toward ${l.headsign}` : ''} from ${l.from.name}`),
        el('span', 'plan-journey-detail', `${stops}, ${duration(minutes)} · get off at ${l.to.name} at ${clock(l.arrive, tz)}`)));
  }));
}
