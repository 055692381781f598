// A calendar's colour from three sliders, red, green and blue (PLN-1), with a live sample of
// the calendar's name on it in the text colour that reads better (black or white, as the
// server will choose it) and the contrast ratio, warned below WCAG's 4.5:1; and how well the
// colour stands out against the page, for the small marks of the calendar in lists.

import { el } from '../shell/dom.js';
import { hexToRgb, rgbToHex, bestText, contrast, ratioText, TEXT_CONTRAST, MARK_CONTRAST } from './contrast.js';

/** Colours to start from, one tap each (the server's palette for new calendars). */
export const PRESETS = ['#1a73e8', '#0b8043', '#d50000', '#f4511e', '#8e24aa', '#616161', '#f6bf26', '#039be5'];

/**
 * @param {{colour: string, name: () => string, onChange: () => void}} o
 */
export function colourSliders(o) {
  const start = hexToRgb(o.colour) ?? { r: 26, g: 115, b: 232 };
  const channels = /** @type {const} */ ([['r', 'Red'], ['g', 'Green'], ['b', 'Blue']]);
  const outputs = {};
  const sliders = Object.fromEntries(channels.map(([key, label]) => {
    const input = el('input', { type: 'range', min: 0, max: 255, step: 1, value: String(start[key]), id: `plan-colour-${key}`,
      name: `colour-${key}`, class: `plan-slider ${key}`, on: { input: update } });
    outputs[key] = el('output', { class: 'plan-slider-value', htmlFor: input.id }, String(start[key]));
    return [key, input];
  }));
  const sample = el('div', { class: 'plan-colour-sample', id: 'plan-colour-sample' });
  const hex = el('p', { class: 'plan-colour-hex', id: 'plan-colour-hex' });
  const ratio = el('p', { class: 'plan-contrast', id: 'plan-contrast', 'aria-live': 'polite' });
  const page = el('p', { class: 'plan-contrast page', id: 'plan-contrast-page' });
  const presets = el('div', { class: 'plan-presets', role: 'group', 'aria-label': 'Start from a colour' },
    PRESETS.map((p) => {
      const b = el('button', { type: 'button', class: 'plan-preset', 'aria-label': `Use ${p.toUpperCase()}`, on: { click: () => set(p) } });
      b.style.background = p;
      return b;
    }));
  const root = el('fieldset', { class: 'plan-group plan-colour' },
    el('legend', null, 'Colour'),
    sample, hex,
    channels.map(([key, label]) => el('div', 'plan-slider-row',
      el('label', { htmlFor: `plan-colour-${key}` }, label), sliders[key], outputs[key])),
    presets, ratio, page);

  const value = () => ({ r: Number(sliders.r.value), g: Number(sliders.g.value), b: Number(sliders.b.value) });

  function set(/** @type {string} */ colour) {
    const c = hexToRgb(colour);
    if (!c) return;
    for (const [key] of channels) sliders[key].value = String(c[key]);
    update();
  }

  function update() {
    const c = value();
    const colour = rgbToHex(c);
    const best = bestText(c);
    for (const [key] of channels) outputs[key].textContent = String(c[key]);
    sample.style.background = colour;
    sample.style.color = best.text;
    sample.textContent = o.name().trim() || 'Calendar name';
    hex.textContent = colour.toUpperCase();
    const readable = best.ratio >= TEXT_CONTRAST;
    ratio.textContent = `Text contrast ${ratioText(best.ratio)} with ${best.text === '#000000' ? 'black' : 'white'} text: ${readable ? 'easy to read' : 'too low: below 4.5:1, hard to read'}.`;
    ratio.classList.toggle('low', !readable);
    // The calendar's marks sit on the page: a colour too close to the page's own is hard to see.
    const surface = hexToRgb(pageColour()) ?? { r: 255, g: 255, b: 255 };
    const against = contrast(c, surface);
    page.textContent = against < MARK_CONTRAST ? `Against the page ${ratioText(against)}: the calendar’s marks will be hard to see; a darker or stronger colour shows better.` : '';
    page.hidden = against >= MARK_CONTRAST;
    Object.assign(root.dataset, { colour, text: best.text, ratio: best.ratio.toFixed(2) });
    o.onChange();
  }
  update();

  return { el: root, value: () => rgbToHex(value()), refresh: update };
}

/** The page's surface colour as "#rrggbb" (light or dark theme). */
function pageColour() {
  const v = getComputedStyle(document.documentElement).getPropertyValue('--surface').trim();
  return /^#[0-9a-f]{6}$/i.test(v) ? v : '#ffffff';
}
