// Operator analytics (PRK-17), reachable from the Accounts menu by operators only: per day the
// share of active accounts that booked, the lots most booked for the 06:30–09:30 rush, how often
// bookings are changed, and the operations that answer slowest. Days are the site's days, as
// the server counts them; the figures are tables first, so they read on a phone and to a
// screen reader, with bars beside the shares for the eye.

import { el, button, form, field } from './forms.js';
import { problemText } from '../shell/api.js';
import { fetchAnalytics } from './api.js';
import { zoneName } from '../shell/zoned-time.js';


const percent = (/** @type {number} */ x) => `${Math.round(x * 1000) / 10}%`;
const ms = (/** @type {number} */ x) => (x >= 100 ? `${Math.round(x)} ms` : `${x.toFixed(1)} ms`);
const clock = (/** @type {number} */ m) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/**
 * @param {string} caption @param {string[]} heads @param {(HTMLElement|string)[][]} rows @param {string} testid
 */
function table(caption, heads, rows, testid) {
  const wrap = el('div', 'an-table-wrap');
  const t = el('table', 'an-table');
  t.dataset.testid = testid;
  t.append(el('caption', 'visually-hidden', caption));
  const head = el('tr');
  for (const h of heads) {
    const th = el('th', '', h);
    th.setAttribute('scope', 'col');
    head.append(th);
  }
  const thead = el('thead');
  thead.append(head);
  const tbody = el('tbody');
  for (const cells of rows) {
    const tr = el('tr');
    cells.forEach((c, i) => {
      const cell = el(i === 0 ? 'th' : 'td');
      if (i === 0) cell.setAttribute('scope', 'row');
      if (typeof c === 'string') cell.textContent = c;
      else cell.append(c);
      tr.append(cell);
    });
    tbody.append(tr);
  }
  t.append(thead, tbody);
  wrap.append(t);
  return wrap;
}

/** A share as text with a bar the screen reader skips (the text says it). */
function shareCell(/** @type {number} */ share) {
  const cell = el('span', 'an-share');
  const bar = el('span', 'an-bar');
  bar.setAttribute('aria-hidden', 'true');
  const fill = el('span', 'an-bar-fill');
  fill.style.width = `${Math.max(0, Math.min(1, share)) * 100}%`;
  bar.append(fill);
  cell.append(el('span', 'an-share-text', percent(share)), bar);
  return cell;
}

/** @param {string} title @param {HTMLElement[]} body @param {string} testid */
function section(title, body, testid) {
  const s = el('section', 'acc-section an-section');
  s.dataset.testid = testid;
  s.append(el('h3', '', title), ...body);
  return s;
}

/** @param {any} a the server's OperatorAnalytics */
function render(a) {
  const days = [...a.days].reverse();
  const shares = section('Who books', [
    el('p', 'muted small', `Accounts active each day and how many of them booked a space (days in ${zoneName(a.timeZone)}).`),
    table('Share of active accounts that booked, per day', ['Day', 'Active', 'Booked', 'Share'],
      days.map((d) => [dayLabel(d.date), String(d.activeUsers), String(d.bookingUsers), shareCell(d.share)]), 'an-days'),
  ], 'an-shares');

  const peakList = el('ol', 'an-lots');
  peakList.dataset.testid = 'an-peak-lots';
  const top = a.peak.lots[0]?.bookings ?? 0;
  for (const lot of a.peak.lots) {
    const li = el('li', 'an-lot');
    const name = el('span', 'an-lot-name', `${lot.name} (${lot.code})`);
    const count = el('span', 'an-lot-count', `${lot.bookings} ${lot.bookings === 1 ? 'booking' : 'bookings'}`);
    const bar = el('span', 'an-bar');
    bar.setAttribute('aria-hidden', 'true');
    const fill = el('span', 'an-bar-fill');
    fill.style.width = `${top ? (lot.bookings / top) * 100 : 0}%`;
    bar.append(fill);
    li.append(name, count, bar);
    peakList.append(li);
  }
  const peak = section(`Busiest lots ${clock(a.peak.startMinute)}–${clock(a.peak.endMinute)}`, [
    el('p', 'muted small', 'Bookings (not cancelled) that start in the morning rush.'),
    a.peak.lots.length ? peakList : el('p', 'muted', 'No bookings start in the rush on these days.'),
  ], 'an-peak');

  const m = a.modifications;
  const mods = section('Changes to bookings', [
    el('p', 'an-figure', m.bookings ? `${m.mean.toFixed(2)} changes per booking` : 'No bookings made on these days.'),
    table('Bookings by how often their time was changed', ['Changed', 'Bookings'], [
      ['Never', String(m.never)], ['Once', String(m.once)], ['Twice', String(m.twice)], ['3 times or more', String(m.threeOrMore)],
    ], 'an-modifications'),
    el('p', 'muted small', `${m.bookings} ${m.bookings === 1 ? 'booking' : 'bookings'} made, ${m.total} ${m.total === 1 ? 'change' : 'changes'} in all.`),
  ], 'an-mods');

  const slow = section('Slowest responses', [
    el('p', 'muted small', 'Recent response times of this server, slowest first; they start afresh when it restarts.'),
    a.slowestOperations.length
      ? table('Response times per operation', ['Operation', 'Requests', 'Median', '95%', '99%'],
        a.slowestOperations.map((o) => [o.operationId, String(o.count), ms(o.p50Ms), ms(o.p95Ms), ms(o.p99Ms)]), 'an-slowest')
      : el('p', 'muted', 'No requests yet.'),
  ], 'an-slow');
  return [shares, peak, mods, slow, mapUsageSection(a.mapUsage)].filter(Boolean);
}

/** "Sat, Nov 28" for a YYYY-MM-DD day, whatever the browser's zone. @param {string} date */
const dayLabel = (date) => new Date(`${date}T12:00:00Z`).toLocaleDateString(undefined, { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' });
const count = (/** @type {number} */ n) => n.toLocaleString();

/** Map images handed out per day against the daily limit, and directions opened (PRK-20); nothing when they are not counted. @param {any} u */
function mapUsageSection(u) {
  if (!u) return null;
  const days = [...u.days].reverse();
  const limit = u.tileDailyLimit;
  const rows = days.map((d) => [dayLabel(d.date), limit ? `${count(d.tiles)} of ${count(limit)}` : count(d.tiles), count(d.directions)]);
  return section('Map usage', [
    el('p', 'muted small', limit
      ? `Map images the app fetched through this server each day, and directions opened in the phone’s maps app. After ${count(limit)} images in a day the map shows without them (lots, spots and paths stay) until the next day.`
      : 'Map images the app fetched through this server each day, and directions opened in the phone’s maps app. No daily limit is set.'),
    table('Map images and directions per day', ['Day', 'Map images', 'Directions'], rows, 'an-map-usage'),
  ], 'an-map');
}

/**
 * @param {import('./index.js').AccountsContext} _ctx
 * @returns {import('./panel.js').View}
 */
export function analyticsView(_ctx) {
  let alive = true;
  const status = el('p', 'muted small', 'Loading…');
  status.setAttribute('role', 'status');
  const results = el('div', 'an-results');
  results.dataset.testid = 'analytics';
  const from = field({ label: 'From', name: 'from', type: 'date' });
  const to = field({ label: 'To', name: 'to', type: 'date' });

  async function load(/** @type {string} */ f, /** @type {string} */ t) {
    status.textContent = 'Loading…';
    try {
      const a = await fetchAnalytics(f, t);
      if (!alive) return;
      from.input.value = a.from;
      to.input.value = a.to;
      results.replaceChildren(...render(a));
      status.textContent = `${dayLabel(a.from)} to ${dayLabel(a.to)}`;
    } catch (err) {
      if (alive) status.textContent = problemText(err);
      throw err;
    }
  }

  const row = el('div', 'an-range');
  row.append(from.wrap, to.wrap);
  const range = form({
    name: 'analytics-range',
    submit: 'Show',
    children: [row],
    async action() { await load(from.input.value, to.input.value); },
  });

  return {
    name: 'analytics',
    title: 'Analytics',
    leave() { alive = false; },
    render() {
      load('', '').catch(() => {});
      const again = button('Last 14 days', () => { load('', '').catch(() => {}); }, 'link-button');
      return [range.el, again, status, results];
    },
  };
}
