// Colours of calendars (PLN-1): #RRGGBB to channels and back, and WCAG 2's relative luminance
// and contrast ratio, so the editor can say how well a calendar's name reads on its colour
// with the text colour the server will choose (black or white, whichever contrasts more).

/** @typedef {{r: number, g: number, b: number}} RGB channels 0…255 */

/** @param {string} hex "#RRGGBB" @returns {RGB|null} */
export function hexToRgb(hex) {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex ?? '');
  return m ? { r: parseInt(m[1], 16), g: parseInt(m[2], 16), b: parseInt(m[3], 16) } : null;
}

/** @param {RGB} c @returns {string} "#rrggbb" */
export const rgbToHex = (c) => `#${[c.r, c.g, c.b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/** WCAG 2 relative luminance, 0 (black) … 1 (white). @param {RGB} c */
export function luminance(c) {
  const channel = (v) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
}

/** The contrast ratio of two colours, 1…21. @param {RGB} a @param {RGB} b */
export function contrast(a, b) {
  const x = luminance(a);
  const y = luminance(b);
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

const BLACK = { r: 0, g: 0, b: 0 };
const WHITE = { r: 255, g: 255, b: 255 };

/**
 * The text colour that reads better on a colour, as the server picks it (ties go to black).
 * @param {RGB} c @returns {{text: '#000000'|'#ffffff', ratio: number}}
 */
export function bestText(c) {
  const black = contrast(c, BLACK);
  const white = contrast(c, WHITE);
  return black >= white ? { text: '#000000', ratio: black } : { text: '#ffffff', ratio: white };
}

/** The least contrast normal text needs (WCAG 2 AA), and what a coloured mark needs beside text. */
export const TEXT_CONTRAST = 4.5;
export const MARK_CONTRAST = 3;

/** "7.2:1", rounded down so a ratio shown as 4.5 really meets 4.5. @param {number} ratio */
export const ratioText = (ratio) => `${new Intl.NumberFormat(navigator.language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(Math.floor(ratio * 10) / 10)}:1`;
