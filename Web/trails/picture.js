// Small pictures of a place on a trail, drawn without a map: the trail's line, a walked path, a
// pin, fitted together into a box. Places are projected on a plane scaled by the cosine of the
// latitude, true enough for the few kilometres of a trail.

const SVG = 'http://www.w3.org/2000/svg';

/**
 * @param {{lines: {points: number[][], colour: string, width?: number}[], pin?: {latitude: number, longitude: number}|null,
 *   width?: number, height?: number}} o  points are [lat, lon, …]
 */
export function placePicture({ lines, pin = null, width = 160, height = 100 }) {
  const all = lines.flatMap((l) => l.points).concat(pin ? [[pin.latitude, pin.longitude]] : []);
  const k = Math.cos(((all[0]?.[0] ?? 0) * Math.PI) / 180);
  const xy = (/** @type {number[]} */ p) => [p[1] * k, -p[0]];
  const pts = all.map(xy);
  const xs = pts.map((q) => q[0]), ys = pts.map((q) => q[1]);
  const minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
  // Room above for the pin's head, which stands over the spot it marks.
  const pad = 12, top = pin ? 26 : 12;
  const scale = Math.min((width - 2 * pad) / Math.max(maxX - minX, 1e-6), (height - pad - top) / Math.max(maxY - minY, 1e-6));
  const ox = (width - (maxX - minX) * scale) / 2, oy = top + (height - pad - top - (maxY - minY) * scale) / 2;
  const at = (/** @type {number[]} */ p) => { const q = xy(p); return [ox + (q[0] - minX) * scale, oy + (q[1] - minY) * scale]; };
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  svg.setAttribute('class', 'trail-pin-picture');
  const add = (name, attrs) => { const n = document.createElementNS(SVG, name); for (const [a, v] of Object.entries(attrs)) n.setAttribute(a, String(v)); svg.append(n); return n; };
  add('rect', { width, height, rx: 10, class: 'trail-pin-ground' });
  for (const line of lines) {
    const d = line.points.map(at).map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
    const w = line.width ?? 3;
    add('polyline', { points: d, fill: 'none', stroke: 'rgba(30,30,30,0.55)', 'stroke-width': w + 2, 'stroke-linejoin': 'round', 'stroke-linecap': 'round' });
    add('polyline', { points: d, fill: 'none', stroke: line.colour, 'stroke-width': w, 'stroke-linejoin': 'round', 'stroke-linecap': 'round' });
  }
  if (pin) {
    const [x, y] = at([pin.latitude, pin.longitude]);
    add('path', { d: `M${x} ${y} l-7 -12 a8 8 0 1 1 14 0 z`, fill: '#d93025', stroke: '#ffffff', 'stroke-width': 1.5 });
    add('circle', { cx: x, cy: y - 17, r: 3, fill: '#ffffff' });
  }
  return svg;
}
