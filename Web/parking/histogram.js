// Typical occupancy by hour for one weekday (PRK-7, seed 2.2.3.1): 24 bars coloured by the
// congestion the hour usually has, the current hour outlined when the day is today.

import { getJSON } from '../shell/api.js';
import { WEEKDAYS, hourLabel } from './format.js';

const cache = new Map();

/** @returns {Promise<(number|null)[]|null>} 24 hourly fractions, null when unavailable */
export async function typicalHours(lotId, weekday) {
  const key = `${lotId}:${weekday}`;
  if (!cache.has(key)) {
    const p = getJSON(`/v1/lots/${lotId}/typical-occupancy?weekday=${weekday}`)
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
  const nav = document.createElement('div');
  nav.className = 'histogram-nav';
  const prev = button('‹', `Previous day: ${WEEKDAYS[(o.weekday + 5) % 7]}`, () => o.onDay(((o.weekday + 5) % 7) + 1, 'prev'));
  const next = button('›', `Next day: ${WEEKDAYS[o.weekday % 7]}`, () => o.onDay((o.weekday % 7) + 1, 'next'));
  prev.dataset.dir = 'prev';
  next.dataset.dir = 'next';
  const day = document.createElement('div');
  day.className = 'histogram-day';
  day.id = `histogram-day-${o.lotId}`;
  day.setAttribute('aria-live', 'polite');
  day.textContent = WEEKDAYS[o.weekday - 1];
  if (isToday) {
    const small = document.createElement('small');
    small.textContent = ' · today';
    day.append(small);
  }
  nav.append(prev, day, next);

  const chart = document.createElement('div');
  chart.className = 'histogram loading';
  chart.dataset.weekday = String(o.weekday);
  chart.setAttribute('role', 'img');
  chart.setAttribute('aria-label', `Typical occupancy on ${WEEKDAYS[o.weekday - 1]}: loading`);
  for (const f of [0.65, 0.85]) {
    // The congestion thresholds (PRK-4): yellow from 65 %, red from 85 %.
    const guide = document.createElement('div');
    guide.className = 'guide';
    guide.style.bottom = `${f * 100}%`;
    guide.setAttribute('aria-hidden', 'true');
    const label = document.createElement('span');
    label.textContent = `${Math.round(f * 100)}%`;
    guide.append(label);
    chart.append(guide);
  }
  const axis = document.createElement('div');
  axis.className = 'histogram-axis';
  axis.setAttribute('aria-hidden', 'true');
  for (const h of [0, 6, 12, 18]) {
    const s = document.createElement('span');
    s.textContent = hourLabel(h);
    axis.append(s);
  }
  const empty = document.createElement('p');
  empty.className = 'histogram-empty';
  empty.hidden = true;
  root.replaceChildren(nav, chart, axis, empty);

  typicalHours(o.lotId, o.weekday).then((hours) => {
    if (!chart.isConnected) return;
    chart.classList.remove('loading');
    chart.querySelectorAll('.bar').forEach((b) => b.remove());
    const values = hours ?? Array(24).fill(null);
    values.forEach((f, h) => {
      const bar = document.createElement('div');
      bar.dataset.hour = String(h);
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
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.setAttribute('aria-label', label);
  b.addEventListener('click', onClick);
  return b;
}
