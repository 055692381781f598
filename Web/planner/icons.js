// Outline glyphs of the Plan, 24 × 24, drawn in the text's colour (decorative: words stand beside them).

const PATHS = {
  lunch: ['M7 3.5v7.5M4.5 3.5v4.5a2.5 2.5 0 0 0 5 0V3.5M7 11v9.5', 'M17 20.5v-17c-2.2 1.2-3.5 3.6-3.5 6.5v4H17'],
  back: ['M14.5 5.5 8 12l6.5 6.5'],
  forward: ['M9.5 5.5 16 12l-6.5 6.5'],
  plus: ['M12 5v14M5 12h14'],
  pin: ['M12 21s-6.5-6.2-6.5-11a6.5 6.5 0 0 1 13 0c0 4.8-6.5 11-6.5 11z', 'M12 12.3a2.3 2.3 0 1 0 0-4.6 2.3 2.3 0 0 0 0 4.6z'],
};

/** @param {keyof typeof PATHS} name */
export function icon(name) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'plan-icon');
  for (const d of PATHS[name]) {
    const p = document.createElementNS(ns, 'path');
    p.setAttribute('d', d);
    svg.append(p);
  }
  return svg;
}
