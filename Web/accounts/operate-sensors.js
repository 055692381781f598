// Operate › Sensors (PRK-1): whether the site's sensors report, for the people who look after
// them: how many report, per lot; the sensors that need a visit (silent, low battery, weak
// signal), silent ones first; what each gateway sent; and the site's own gateways
// (operate-gateways.js). Read afresh whenever the section is shown. Times are the site's wall
// clock; "3 min ago" counts from the server's answer, so a phone whose clock is off still says
// how long a sensor has been quiet.

import { el, button } from './forms.js';
import { problemText } from '../shell/api.js';
import { zonedParts, addDays, dayText, clockText } from '../shell/zoned-time.js';
import { age, number } from '../parking/format.js';
import { getSensorHealth } from './api.js';
import { statusLine, levelText } from './operate-parts.js';
import { gatewaysManager } from './operate-gateways.js';

/** A long list would push the gateways off a phone's screen: the first ones, then a button for the rest. */
const FIRST_SHOWN = 12;

/**
 * @typedef {{batches: number, events: number, accepted: number, rejected: number}} Traffic
 * @typedef {{lotId: string, lotName: string, sensors: number, reporting: number, silent: number, neverReported: number, lastReportAt?: string}} LotHealth
 * @typedef {{sensorId: string, spotId: string, spotLabel: string, lotName: string, level: number,
 *   concerns: string[], lastReportAt: string, battery?: number, rssi?: number, snr?: number}} Concern
 * @typedef {{name: string, lastReportAt: string, thisHour: Traffic, last24Hours: Traffic}} Gateway
 * @typedef {{asOf: string, keepAliveMinutes: number,
 *   totals: {sensors: number, reporting: number, silent: number, neverReported: number, lowBattery: number, weakSignal: number},
 *   lots: LotHealth[], attention: Concern[], attentionCount: number, gateways: Gateway[]}} Report
 */

/** "1 sensor", "1,204 sensors". */
const count = (/** @type {number} */ n, /** @type {string} */ one, many = `${one}s`) => `${number(n)} ${n === 1 ? one : many}`;

/** "90 minutes" as "1 hour 30 minutes", "45 minutes". */
function spanText(/** @type {number} */ minutes) {
  const h = Math.floor(minutes / 60), m = minutes % 60;
  if (!h) return count(m, 'minute');
  return m ? `${count(h, 'hour')} ${count(m, 'minute')}` : count(h, 'hour');
}

/** Whole numbers in the person's locale: signal figures are read to the dB, not finer. */
const whole = (/** @type {number} */ x) => new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 }).format(x);

/**
 * @param {import('./operate-parts.js').OperateState} shared
 * @returns {{el: HTMLElement, show: () => void}}
 */
export function sensorsSection(shared) {
  const { site } = shared;
  const tz = site.timeZone;
  const status = statusLine();
  const body = el('div', 'op-sensors');
  body.hidden = true;
  let showAll = false;
  let asked = 0;
  /** @type {Report|null} */
  let shown = null;

  /** "9:12 AM" on the day of `now` at the site, "yesterday 9:12 PM", else "Wed, Nov 25, 9:12 AM". */
  function siteTime(/** @type {Date} */ at, /** @type {Date} */ now) {
    const day = zonedParts(at, tz).date;
    const today = zonedParts(now, tz).date;
    if (day === today) return clockText(at, tz);
    if (day === addDays(today, -1)) return `yesterday ${clockText(at, tz)}`;
    return `${dayText(at, tz)}, ${clockText(at, tz)}`;
  }

  /** "3 min ago" with the site's day and time on hover. */
  function ago(/** @type {string} */ iso, /** @type {Date} */ now) {
    const at = new Date(iso);
    return el('time', { dateTime: iso, title: `${dayText(at, tz)}, ${clockText(at, tz)}` }, age(at, now));
  }

  /** A bar of reporting (and silent) sensors among all of a lot's; the words beside it say the same. */
  function bar(/** @type {number} */ reporting, /** @type {number} */ silent, /** @type {number} */ total) {
    const b = el('span', 'op-sensor-bar');
    b.setAttribute('aria-hidden', 'true');
    const part = (/** @type {number} */ n, /** @type {string} */ cls) => {
      const p = el('span', cls);
      p.style.width = `${total ? (n / total) * 100 : 0}%`;
      return p;
    };
    b.append(part(reporting, 'ok'), part(silent, 'silent'));
    return b;
  }

  /** @param {Report} r */
  function summary(r) {
    const t = r.totals;
    const lead = el('p', 'op-sensor-lead');
    lead.dataset.testid = 'op-sensor-reporting';
    lead.append(el('strong', '', number(t.reporting)), ` of ${count(t.sensors, 'sensor')} reporting`);
    const figures = /** @type {[string, number, string, boolean][]} */ ([
      ['silent', t.silent, 'Silent', t.silent > 0],
      ['never', t.neverReported, 'Never reported', false],
      ['battery', t.lowBattery, 'Low battery', t.lowBattery > 0],
      ['signal', t.weakSignal, 'Weak signal', t.weakSignal > 0],
    ]);
    const cards = el('ul', 'op-sensor-cards');
    cards.setAttribute('aria-label', 'Sensors by state');
    cards.append(...figures.map(([key, n, words, warn]) => {
      const li = el('li', `op-sensor-card${warn ? ' warn' : ''}`, el('span', 'op-sensor-figure', number(n)), el('span', 'op-sensor-word', words));
      li.dataset.figure = key;
      return li;
    }));
    const terms = el('div', 'op-sensor-terms muted small',
      el('p', '', `Silent: no report for over ${spanText(r.keepAliveMinutes)}; drivers see the spot as unknown.`),
      el('p', '', `Never reported: in the site file, but no report yet. Low battery: under 20 %. Weak signal: below ${whole(-120)} dBm, or SNR below ${whole(-12)} dB.`));
    const s = el('section', { class: 'op-sensor-summary', 'aria-label': 'Summary' }, lead, bar(t.reporting, t.silent, t.sensors), cards, terms);
    s.dataset.testid = 'op-sensor-summary';
    return s;
  }

  /** @param {Report} r @param {Date} now */
  function lotsBlock(r, now) {
    const list = el('ul', 'op-list op-sensor-lots');
    list.dataset.testid = 'op-sensor-lots';
    list.append(...r.lots.map((l) => {
      const more = [];
      if (l.silent) more.push(el('span', 'op-sensor-bad', `${number(l.silent)} silent`));
      // A lot without a last report has only sensors that never reported: one phrase says it.
      if (l.lastReportAt) {
        if (l.neverReported) more.push(`${number(l.neverReported)} never reported`);
        more.push(el('span', 'op-sensor-last', more.length ? 'last report ' : 'Last report ', ago(l.lastReportAt, now)));
      } else {
        more.push('No sensor has reported yet');
      }
      const line = el('span', 'muted small op-sensor-more');
      more.forEach((m, i) => line.append(...(i ? [' · ', m] : [m])));
      const li = el('li', 'op-sensor-lot',
        el('span', 'op-sensor-lot-name', l.lotName),
        el('span', 'op-sensor-lot-count', `${number(l.reporting)} of ${number(l.sensors)} reporting`),
        bar(l.reporting, l.silent, l.sensors), line);
      li.dataset.lot = l.lotId;
      return li;
    }));
    return block('Lots', list);
  }

  /** @param {Concern} c @param {Date} now */
  function concernWords(c, now) {
    return c.concerns.map((k) => {
      if (k === 'silent') return ['bad', `Silent since ${siteTime(new Date(c.lastReportAt), now)}`];
      if (k === 'lowBattery') return ['warn', c.battery != null ? `Battery ${number(c.battery)} %` : 'Low battery'];
      if (k === 'weakSignal') {
        const parts = [c.rssi != null ? `${whole(c.rssi)} dBm` : '', c.snr != null ? `SNR ${whole(c.snr)} dB` : ''].filter(Boolean);
        return ['warn', parts.length ? `Weak signal: ${parts.join(', ')}` : 'Weak signal'];
      }
      return null;
    }).filter((x) => x != null);
  }

  /** @param {Report} r @param {Date} now @param {import('./operate-parts.js').Lot[]} lots */
  function attentionBlock(r, now, lots) {
    const list = el('ul', 'op-list op-sensor-attention');
    list.dataset.testid = 'op-sensor-attention';
    list.setAttribute('aria-label', 'Sensors that need attention');
    const byName = new Map(lots.map((l) => [l.name, l]));
    const item = (/** @type {Concern} */ c) => {
      const lot = byName.get(c.lotName);
      const where = [c.lotName, lot ? levelText(lot, c.level) : ''].filter(Boolean).join(' · ');
      const chips = el('ul', 'op-concerns');
      chips.append(...concernWords(c, now).map(([kind, words]) => el('li', `op-concern ${kind}`, words)));
      const li = el('li', 'op-sensor-item',
        el('div', 'op-item-text', el('span', 'op-item-title', `Spot ${c.spotLabel}`), el('span', 'muted small', where)), chips);
      li.dataset.spot = c.spotId;
      li.dataset.label = c.spotLabel;
      return li;
    };
    const fill = () => {
      const some = showAll ? r.attention : r.attention.slice(0, FIRST_SHOWN);
      list.replaceChildren(...some.map(item));
      rest.hidden = some.length >= r.attention.length;
      rest.textContent = `Show ${number(r.attention.length - some.length)} more`;
    };
    const rest = button('', () => {
      showAll = true;
      fill();
      // The button is gone: focus goes to the first sensor it brought, not back to the page's top.
      const next = /** @type {HTMLElement|undefined} */ (list.children[FIRST_SHOWN]);
      if (next) { next.tabIndex = -1; next.focus(); }
    }, 'link-button op-sensor-rest');
    rest.dataset.action = 'more-sensors';
    const head = r.attentionCount ? `Needs attention (${number(r.attentionCount)})` : 'Needs attention';
    const notes = [];
    if (r.attentionCount > r.attention.length) {
      notes.push(el('p', 'muted small', `${number(r.attention.length)} of ${number(r.attentionCount)} listed, silent ones first.`));
    }
    if (!r.attention.length) {
      const reported = r.totals.reporting + r.totals.silent;
      notes.push(el('p', 'muted small op-sensor-empty', reported ? 'Every sensor that has reported is healthy.'
        : 'No sensor has reported yet. Silent sensors, low batteries and weak signals show here once they do.'));
    }
    fill();
    return block(head, ...notes, list, rest);
  }

  /** @param {Report} r @param {Date} now */
  function gatewaysBlock(r, now) {
    const list = el('ul', 'op-list op-sensor-gateways');
    list.dataset.testid = 'op-sensor-gateways';
    const traffic = (/** @type {string} */ when, /** @type {Traffic} */ t) => el('p', 'op-traffic',
      el('span', 'op-traffic-when', when), ' ', el('span', 'op-traffic-counts', `${count(t.events, 'report')} · ${number(t.rejected)} rejected`));
    list.append(...r.gateways.map((g) => {
      const li = el('li', 'op-sensor-gateway',
        el('div', 'op-item-text',
          el('span', 'op-item-title', g.name),
          el('span', 'muted small', 'Last report ', ago(g.lastReportAt, now))),
        el('div', 'op-traffics', traffic('This hour', g.thisHour), traffic('Last 24 hours', g.last24Hours)));
      li.dataset.name = g.name;
      return li;
    }));
    if (!r.gateways.length) return block('Gateway traffic', el('p', 'muted small op-sensor-empty', 'No gateway has reported for this site in the last 24 hours.'));
    // Said only when it matters: a rejected report is an old or impossible one, not a repeat.
    const rejected = r.gateways.some((g) => g.last24Hours.rejected > 0);
    return block('Gateway traffic', list, rejected ? el('p', 'muted small', 'Rejected reports were older than what the spot already showed, or could not be right.') : null);
  }

  /** A titled part of the section, for the eye and for a screen reader's list of headings. */
  function block(/** @type {string} */ title, /** @type {...(HTMLElement|null)} */ ...children) {
    const h = el('h4', 'op-subhead', title);
    h.id = `op-sensors-${title.split(' ')[0].toLowerCase()}-${site.id}`;
    const s = el('section', 'op-sensor-block', h, ...children);
    s.setAttribute('aria-labelledby', h.id);
    return s;
  }

  /** @param {Report} r @param {import('./operate-parts.js').Lot[]} lots */
  function draw(r, lots) {
    const now = new Date(r.asOf);
    asOf.textContent = `As of ${now.toLocaleTimeString(undefined, { timeZone: tz, hour: 'numeric', minute: '2-digit', timeZoneName: 'short' })}`;
    if (!r.totals.sensors) {
      body.hidden = true;
      status.textContent = 'This site has no sensors yet: they come with the site file.';
      return;
    }
    status.textContent = '';
    body.hidden = false;
    body.replaceChildren(summary(r), lotsBlock(r, now), attentionBlock(r, now, lots), gatewaysBlock(r, now));
  }

  async function load() {
    const mine = ++asked;
    refresh.disabled = true;
    try {
      // The lots say which are structures, for the level of a spot; without them the level is left out.
      const [r, lots] = await Promise.all([getSensorHealth(site.id), shared.lots.catch(() => [])]);
      if (!shared.alive() || mine !== asked) return;
      shown = r;
      draw(r, lots);
    } catch (err) {
      // What was shown stays, with the reason it could not be read again.
      if (shared.alive() && mine === asked) status.textContent = problemText(err);
    } finally {
      if (mine === asked) refresh.disabled = false;
    }
  }

  const asOf = el('p', 'muted small');
  asOf.dataset.testid = 'op-sensors-as-of';
  const refresh = button('Refresh', () => { load(); gateways.load(); }, 'link-button');
  refresh.dataset.action = 'refresh-sensors';
  const gateways = gatewaysManager(shared);
  const root = el('div', 'op-section', el('div', 'op-subhead-row op-sensors-head', asOf, refresh), status, body, gateways.el);
  return {
    el: root,
    show() {
      if (!shown) status.textContent = 'Loading…';
      load();
      gateways.load();
    },
  };
}
