// Congestion and spot colours from the theme. Spot states are the API's one-letter codes.

import { palette } from '../shell/theme.js';

/** Palette slots of the spot overlay, in drawing order. */
export const SPOT_SLOTS = ['free', 'held', 'taken', 'closed', 'unknown'];

/** API state letter → palette slot. Booked spots are not free to others: they show as taken. */
const SLOT_OF = { f: 0, h: 1, o: 2, b: 2, c: 3, u: 4 };
const slotTable = new Uint8Array(128).fill(4);
for (const [ch, slot] of Object.entries(SLOT_OF)) slotTable[ch.charCodeAt(0)] = slot;

/** @param {number} charCode */
export const slotOf = (charCode) => slotTable[charCode] ?? 4;

export function spotPalette() {
  const p = palette();
  return [p['spot-free'], p['spot-held'], p['spot-taken'], p['spot-closed'], p['spot-unknown']];
}

/** @param {'green'|'yellow'|'red'|string} level */
export function congestionColours(level) {
  const p = palette();
  if (level === 'green' || level === 'yellow' || level === 'red') return { fill: p[level], text: p[`on-${level}`] };
  return { fill: p.unknown, text: p['on-unknown'] };
}
