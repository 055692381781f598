// Words and numbers for Trails: lengths and heights in the person's units, and the names of
// tiers, shapes, amenities and guideline sections as a person says them.

import { defaultUnits } from '../accounts/units.js';
import { cachedMe } from '../accounts/session.js';

const units = () => cachedMe()?.units ?? defaultUnits();
const n0 = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const n1 = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const n2 = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2, minimumFractionDigits: 2 });

/** A trail's length: miles or kilometres with one decimal. @param {number} metres */
export function length(metres, u = units()) {
  return u.distance === 'mi' ? `${n1.format(metres / 1609.344)} mi` : `${n1.format(metres / 1000)} km`;
}

/** A hike's distance so far: two decimals while it is short (0.05 mi), one after. @param {number} metres */
export function walked(metres, u = units()) {
  const v = u.distance === 'mi' ? metres / 1609.344 : metres / 1000;
  return `${(v < 10 ? n2 : n1).format(v)} ${u.distance === 'mi' ? 'mi' : 'km'}`;
}

/** A height or a climb: feet or metres. @param {number} metres */
export function height(metres, u = units()) {
  return u.elevation === 'ft' ? `${n0.format(metres / 0.3048)} ft` : `${n0.format(metres)} m`;
}

/** How far away a trailhead is. @param {number} metres */
export function away(metres, u = units()) {
  const value = u.distance === 'mi' ? metres / 1609.344 : metres / 1000;
  const unit = u.distance === 'mi' ? 'mi' : 'km';
  if (value < 0.1) return `less than 0.1 ${unit} away`;
  return `${(value < 10 ? n1 : n0).format(value)} ${unit} away`;
}

/** A speed: mph or km/h with one decimal. @param {number} metresPerSecond */
export function speed(metresPerSecond, u = units()) {
  return u.distance === 'mi' ? `${n1.format(metresPerSecond * 2.236936)} mph` : `${n1.format(metresPerSecond * 3.6)} km/h`;
}

/** A stopwatch: 01:02:03. @param {number} seconds */
export function stopwatch(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60].map((x) => String(x).padStart(2, '0')).join(':');
}

const pct = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 });
export const percent = (v) => pct.format(v / 100);
export const steps = (v) => n0.format(Math.round(v / 100) * 100);

export const DIFFICULTY = { easy: 'Easy', moderate: 'Moderate', hard: 'Hard' };
export const SHAPE = { loop: 'Loop', outAndBack: 'Out and back', pointToPoint: 'One way' };

export const AMENITY = {
  restrooms: 'Restrooms', trailheadMap: 'Trailhead map', waterFountains: 'Water fountains', firePits: 'Fire pits',
  trailMarkers: 'Trail markers', informationCenter: 'Information centre', campsites: 'Campsites', picnicTables: 'Picnic tables',
  illuminated: 'Lit at night', parking: 'Parking',
};

/** The Safety Guidelines screen's sections, in the seed's order. */
export const GUIDELINE_SECTIONS = [
  ['predator', 'Predatory wildlife'], ['dangerousPlant', 'Dangerous plants'], ['ediblePlant', 'Edible plants'], ['equipment', 'Hiking equipment'],
];

export const POINT_KIND = { landmark: 'Landmark', scenicOverlook: 'Scenic overlook', waterfall: 'Waterfall', plant: 'Plant', animal: 'Animal' };

/** Why a comment or post is reported, as the person and the operators read it. */
export const REPORT_REASONS = /** @type {[string, string][]} */ ([
  ['spam', 'Spam or advertising'], ['offensive', 'Rude or offensive'], ['unsafe', 'Dangerous advice'], ['wrong', 'Wrong about this trail'], ['other', 'Something else'],
]);

/**
 * Dates as the trail's region tells them (the page's `timeZone`), in the person's locale; the
 * browser's own zone when the name is unknown to it.
 * @param {string|undefined} timeZone @param {Intl.DateTimeFormatOptions} options
 */
export function placeDates(timeZone, options) {
  try { return new Intl.DateTimeFormat(undefined, { ...options, timeZone }); } catch { return new Intl.DateTimeFormat(undefined, options); }
}
