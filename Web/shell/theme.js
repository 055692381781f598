// Colours live in shell/shell.css as custom properties; the canvas reads them here so that one place
// defines the light and dark looks of both the page and the map.

const scheme = matchMedia('(prefers-color-scheme: dark)');
/** @type {Record<string, string>} */
let colours = {};
const listeners = new Set();

function read() {
  const style = getComputedStyle(document.documentElement);
  const names = ['ground', 'grid', 'campus', 'campus-stroke', 'lot', 'lot-stroke', 'structure', 'structure-stroke',
    'selected', 'green', 'yellow', 'red', 'on-green', 'on-yellow', 'on-red', 'unknown', 'on-unknown',
    'spot-free', 'spot-held', 'spot-taken', 'spot-closed', 'spot-unknown', 'surface', 'text', 'car', 'on-car'];
  colours = Object.fromEntries(names.map((n) => [n, style.getPropertyValue(`--${n}`).trim()]));
  colours.dark = String(scheme.matches);
}

read();
scheme.addEventListener('change', () => {
  read();
  for (const fn of listeners) fn();
});

/** @returns {Record<string, string>} */
export const palette = () => colours;

/** @param {() => void} fn */
export function onThemeChange(fn) { listeners.add(fn); }
