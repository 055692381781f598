// Web Mercator in normalised units: the world is the unit square, x east, y south.
// Everything on screen is derived from these units in double precision, because at zoom 19
// a world pixel coordinate exceeds what the canvas's float32 transforms can hold exactly.

/** @typedef {{lat: number, lon: number}} LatLon */
/** @typedef {{x: number, y: number}} Point */

export const TILE_SIZE = 256;
export const MAX_LATITUDE = 85.0511287798;
const EARTH_CIRCUMFERENCE = 40075016.686;

/** @param {LatLon} p @returns {Point} */
export function toMercator(p) {
  const lat = Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, p.lat));
  const s = Math.sin((lat * Math.PI) / 180);
  return {
    x: (p.lon + 180) / 360,
    y: 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI),
  };
}

/** @param {Point} m @returns {LatLon} */
export function fromMercator(m) {
  const n = Math.PI - 2 * Math.PI * m.y;
  return {
    lat: (180 / Math.PI) * Math.atan(Math.sinh(n)),
    lon: m.x * 360 - 180,
  };
}

/** Mercator units per metre on the ground at a latitude. */
export function unitsPerMetre(lat) {
  return 1 / (EARTH_CIRCUMFERENCE * Math.cos((lat * Math.PI) / 180));
}

/** Ground metres per CSS pixel at a zoom and latitude. */
export function metresPerPixel(zoom, lat) {
  return (EARTH_CIRCUMFERENCE * Math.cos((lat * Math.PI) / 180)) / (TILE_SIZE * 2 ** zoom);
}

/** CSS pixels per mercator unit at a (fractional) zoom. */
export function worldSize(zoom) {
  return TILE_SIZE * 2 ** zoom;
}
