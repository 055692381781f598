// Typical occupancy by hour for one weekday (PRK-7, seed 2.2.3.1): 24 bars coloured by the
// congestion the hour usually has, the current hour outlined when the day is today.

import { getTypicalOccupancy } from './api.js';
import { el } from '../shell/dom.js';
import { WEEKDAYS, hourLabel } from './format.js';

const cache = new Map();

/** @returns {Promise<(number|null)[]|null>} 24 hourly fractions, null when unavailable */
export async function typicalHours(lotId, weekday) {
  const key = `${lotId}:${weekday}`;
  if (!cache.has(key)) {
    const p = getTypicalOccupancy(lotId, weekday)
      .then((r) => r.data.hours)
      .catch(() => { cache.delete(key); return null; });
    cache.set(key, p);
  }
  return cache.get(key);
}

const levelOf = (f) => (f >= 0.85 ? 'red' : f >= 0.65 ? 'yellow' : 'green');

/**
 * @param {HTMLElement} root where the histogram goes (emptied first)
 * @param {{lotId: string, weekday: number, today: number, hour: number, onDay: (weekday: number, dir: 'prev'|'next') => void}} o
 */
export function renderHistogram(root, o) {
  const isToday = o.weekday === o.today;
  const prev = button('‹', `Previous day: ${WEEKDAYS[(o.weekday + 5) % 7]}`, () => o.onDay(((o.weekday + 5) % 7) + 1, 'prev'));
  const next = button('›', `Next day: ${WEEKDAYS[o.weekday % 7]}`, () => o.onDay((o.weekday % 7) + 1, 'next'));
  prev.dataset.dir = 'prev';
  next.dataset.dir = 'next';
  const day = el('div', { class: 'histogram-day', id: `histogram-day-${o.lotId}`, 'aria-live': 'polite' },
    WEEKDAYS[o.weekday - 1], isToday && el('small', null, ' · today'));
  const nav = el('div', 'histogram-nav', prev, day, next);

  const chart = el('div', {
    class: 'histogram loading', dataset: { weekday: String(o.weekday) }, role: 'img',
    'aria-label': `Typical occupancy on ${WEEKDAYS[o.weekday - 1]}: loading`,
  });
  for (const f of [0.65, 0.85]) {
    // The congestion thresholds (PRK-4): yellow from 65 %, red from 85 %.
    const guide = el('div', { class: 'guide', 'aria-hidden': 'true' }, el('span', null, `${Math.round(f * 100)}%`));
    guide.style.bottom = `${f * 100}%`;
    chart.append(guide);
  }
  const axis = el('div', { class: 'histogram-axis', 'aria-hidden': 'true' }, [0, 6, 12, 18].map((h) => el('span', null, hourLabel(h))));
  const empty = el('p', { class: 'histogram-empty', hidden: true });
  root.replaceChildren(nav, chart, axis, empty);

  typicalHours(o.lotId, o.weekday).then((hours) => {
    if (!chart.isConnected) return;
    chart.classList.remove('loading');
    chart.querySelectorAll('.bar').forEach((b) => b.remove());
    const values = hours ?? Array(24).fill(null);
    values.forEach((f, h) => {
      const bar = el('div', { dataset: { hour: String(h) } });
      if (f == null) {
        bar.className = 'bar none';
        bar.title = `${hourLabel(h)}: no data`;
      } else {
        bar.className = `bar ${levelOf(f)}`;
        bar.style.height = `${Math.max(2, Math.round(f * 100))}%`;
        bar.dataset.value = f.toFixed(3);
        bar.title = `${hourLabel(h)}: ${Math.round(f * 100)}% full`;
      }
      if (isToday && h === o.hour) bar.classList.add('now');
      chart.append(bar);
    });
    const known = values.map((f, h) => ({ f, h })).filter((x) => x.f != null);
    if (!known.length) {
      empty.hidden = false;
      empty.textContent = hours ? 'No history for this day yet.' : 'Typical occupancy is unavailable offline.';
      chart.setAttribute('aria-label', `Typical occupancy on ${WEEKDAYS[o.weekday - 1]}: no data`);
      return;
    }
    const peak = known.reduce((p, q) => (q.f > p.f ? q : p));
    chart.setAttribute('aria-label', `Typical occupancy on ${WEEKDAYS[o.weekday - 1]}: busiest around ${hourLabel(peak.h)} at ${Math.round(peak.f * 100)}% full`);
  });
}


function button(text, label, onClick) {
  return el('button', { type: 'button', 'aria-label': label, on: { click: onClick } }, text);
}
