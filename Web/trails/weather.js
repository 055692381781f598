// The Weather section of a trail's page (TRL-3): today and the three days after at the trailhead,
// each with one of five pictures and its high and low in the person's units; the data's credit,
// as its licence asks; and, when the service could not be reached, how old the forecast shown is.

import { el } from '../shell/dom.js';
import { OfflineError } from '../shell/api.js';
import { defaultUnits } from '../accounts/units.js';
import { cachedMe } from '../accounts/session.js';
import { getWeather } from './api.js';

const NS = 'http://www.w3.org/2000/svg';
const WORDS = { sunny: 'Sunny', partlyCloudy: 'Partly cloudy', rainy: 'Rain', snowy: 'Snow', windy: 'Windy' };
/** 32 × 32 pictures: sun, sun behind a cloud, cloud with rain, cloud with snow, gusts. */
const PICTURES = {
  sunny: [['circle', { cx: 16, cy: 16, r: 6.5, fill: '#f4b400' }], ['path', { d: 'M16 3v4M16 25v4M3 16h4M25 16h4M6.8 6.8l2.8 2.8M22.4 22.4l2.8 2.8M6.8 25.2l2.8-2.8M22.4 9.6l2.8-2.8', stroke: '#f4b400', 'stroke-width': 2.2, 'stroke-linecap': 'round' }]],
  partlyCloudy: [['circle', { cx: 12, cy: 12, r: 5.5, fill: '#f4b400' }], ['path', { d: 'M10 25h14a5 5 0 0 0 0-10 7 7 0 0 0-13 1.5A4.3 4.3 0 0 0 10 25z', fill: '#9aa6b5' }]],
  rainy: [['path', { d: 'M8 19h16a5 5 0 0 0 0-10 7 7 0 0 0-13 1.5A4.3 4.3 0 0 0 8 19z', fill: '#7d8a9a' }], ['path', { d: 'M11 22l-2 5M17 22l-2 5M23 22l-2 5', stroke: '#1a73e8', 'stroke-width': 2.2, 'stroke-linecap': 'round' }]],
  snowy: [['path', { d: 'M8 18h16a5 5 0 0 0 0-10 7 7 0 0 0-13 1.5A4.3 4.3 0 0 0 8 18z', fill: '#9aa6b5' }], ['path', { d: 'M10 23h4M12 21v4M18 25h4M20 23v4M15 28h2', stroke: '#5b9bd5', 'stroke-width': 2, 'stroke-linecap': 'round' }]],
  windy: [['path', { d: 'M4 12h15a3.5 3.5 0 1 0-3.5-3.5M4 18h21a3.5 3.5 0 1 1-3.5 3.5M4 24h10', stroke: '#5c6470', 'stroke-width': 2.2, 'fill': 'none', 'stroke-linecap': 'round' }]],
};

function picture(condition) {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 32 32');
  svg.setAttribute('class', 'weather-picture');
  svg.setAttribute('aria-hidden', 'true');
  for (const [tag, attrs] of PICTURES[condition] ?? PICTURES.partlyCloudy) {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    svg.append(node);
  }
  return svg;
}

/** @param {number} celsius */
function temperature(celsius, unit = (cachedMe()?.units ?? defaultUnits()).temperature) {
  return unit === 'F' ? `${Math.round(celsius * 9 / 5 + 32)}°F` : `${Math.round(celsius)}°C`;
}

/** "Today", then the weekday, for a `YYYY-MM-DD` at the trailhead. */
function dayName(date, index) {
  if (index === 0) return 'Today';
  const [y, m, d] = date.split('-').map(Number);
  return new Intl.DateTimeFormat(undefined, { weekday: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** "3 hours ago", "2 days ago". @param {string} iso */
function age(iso) {
  const minutes = Math.max(1, Math.round((Date.now() - Date.parse(iso)) / 60000));
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  if (minutes < 60) return rtf.format(-minutes, 'minute');
  if (minutes < 48 * 60) return rtf.format(-Math.round(minutes / 60), 'hour');
  return rtf.format(-Math.round(minutes / 1440), 'day');
}

/** The section, filled in when the forecast arrives. @param {string} trailId */
export function weatherSection(trailId) {
  const body = el('div', { class: 'weather-body', 'aria-live': 'polite' }, el('p', 'trails-note', 'Loading the forecast…'));
  const section = el('section', { class: 'trail-section trail-weather', id: 'trail-weather' }, el('h3', null, 'Weather'), body);
  getWeather(trailId).then(({ data, fromCache }) => {
    const notes = [];
    if (data.stale || fromCache) notes.push(el('p', { class: 'trails-note weather-stale' },
      `The weather service could not be reached: this forecast is from ${age(data.fetchedAt)}.`));
    body.replaceChildren(
      data.days.length
        ? el('ul', 'weather-days', data.days.map((d, i) => el('li', { class: 'weather-day', dataset: { condition: d.condition } },
          el('span', 'weather-name', dayName(d.date, i)), picture(d.condition), el('span', 'visually-hidden', WORDS[d.condition]),
          el('span', 'weather-high', temperature(d.highCelsius)), el('span', 'weather-low', temperature(d.lowCelsius)))))
        : el('p', 'trails-empty', 'The last forecast kept has run out. Try again when the weather service is back.'),
      ...notes,
      el('p', 'weather-credit', el('a', { href: data.creditURL, target: '_blank', rel: 'noopener' }, data.credit)));
    section.dataset.stale = String(!!(data.stale || fromCache));
  }).catch((err) => {
    body.replaceChildren(el('p', 'trails-empty', err instanceof OfflineError
      ? 'No forecast: Waymark is offline and this trail’s forecast was not kept on this device.'
      : 'The forecast cannot be reached right now. Check again later, or ask the rangers before you go.'));
  });
  return section;
}
