// Operate › Lots (PRK-1): a lot's pay-station price, opening hours, permit rules, rules shown to
// drivers and booking offer, edited in the words of a site file and saved whole. The server
// checks them by the site file's rules; what it refuses is shown with the form as typed.

import { el, field, form } from './forms.js';
import { ProblemError, problemText } from '../shell/api.js';
import { confirm } from '../shell/dialog.js';
import { getLotSettings, putLotSettings } from './api.js';
import { lotPicker, statusLine, perLine, saveState } from './operate-parts.js';
import { hoursRow, permitRow, rowList, midnight } from './operate-rows.js';
import { closuresPart } from './operate-closures.js';

/** "$" for USD, "€" for EUR: the sign drivers see beside an amount. */
function currencySign(/** @type {string} */ currency) {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' })
      .formatToParts(0).find((p) => p.type === 'currency')?.value ?? currency;
  } catch {
    return currency;
  }
}

/** @param {{label: string, name: string, value?: string, hint?: string}} o @param {string} currency */
function moneyField(o, currency) {
  const f = field({ ...o, inputMode: 'decimal', maxLength: 12 });
  const box = el('div', 'op-money');
  f.input.replaceWith(box);
  box.append(el('span', { class: 'op-money-sign', 'aria-hidden': 'true' }, currencySign(currency)), f.input);
  return f;
}

/** @param {{label: string, name: string, value?: number|string, hint?: string, min?: number, max?: number, unit?: string}} o */
function countField(o) {
  const f = field({ label: o.label, name: o.name, type: 'number', value: o.value == null ? '' : String(o.value), hint: o.hint, inputMode: 'numeric' });
  if (o.min != null) f.input.min = String(o.min);
  if (o.max != null) f.input.max = String(o.max);
  f.input.step = '1';
  if (o.unit) {
    // The unit stays beside the number, where the eye reads it; the label says it too.
    const box = el('div', 'op-unit');
    f.input.replaceWith(box);
    box.append(f.input, el('span', { class: 'op-unit-word', 'aria-hidden': 'true' }, o.unit));
  }
  return f;
}

/** A whole number as a number; anything else as typed, for the server to name. */
const count = (/** @type {string} */ v) => (v.trim() === '' ? undefined : /^\d+$/.test(v.trim()) ? Number(v) : v.trim());
const text = (/** @type {string} */ v) => (v.trim() === '' ? undefined : v.trim());

/** @param {string} legend @param {Node[]} children @param {string} part */
function group(legend, children, part) {
  const g = el('fieldset', 'op-group');
  g.dataset.part = part;
  g.append(el('legend', '', legend), ...children);
  return g;
}

/**
 * The form of one lot's settings.
 * @param {import('./operate-parts.js').Lot} lot @param {any} settings as the server gave them
 * @param {any} site the lot's site, whose permits the rules may name
 * @param {(settings: any) => void} saved after the server took them
 */
function lotForm(lot, settings, site, saved) {
  const price = settings.price;
  const currency = price.currency;
  const hourly = moneyField({ label: 'Per hour', name: 'hourly', value: price.hourly, hint: 'Each started hour.' }, currency);
  const dailyMax = moneyField({ label: 'Daily maximum', name: 'dailyMax', value: price.dailyMax, hint: 'The most a day costs.' }, currency);
  const prices = el('div', 'op-pair', hourly.wrap, dailyMax.wrap);

  const hours = rowList({
    name: 'hours', entries: settings.hours ?? [], make: hoursRow, add: 'Add opening hours',
    blank: () => ({ days: 'Mo-Fr', open: '07:00', close: '22:00' }),
    empty: 'Always open. Add opening hours to close the lot at night or on some days.',
  });
  const permits = rowList({
    name: 'permits', entries: settings.permits ?? [], make: (entry, remove) => permitRow(entry, remove, site), add: 'Add a permit rule',
    blank: () => ({ days: 'Mo-Fr', from: '07:00', to: '17:00', permits: [] }),
    empty: 'Anyone may park here at any time.',
  });

  const rules = field({ label: 'Rules shown to drivers', name: 'rules', hint: 'One per line: up to 10, each up to 200 characters.' });
  const area = /** @type {HTMLTextAreaElement} */ (el('textarea', { id: rules.input.id, name: 'rules', rows: 4 }));
  area.setAttribute('aria-describedby', rules.input.getAttribute('aria-describedby') ?? '');
  area.value = (settings.rules ?? []).join('\n');
  rules.input.replaceWith(area);
  // The box grows with the rules, so every one of them reads without scrolling inside it.
  const fit = () => {
    if (!area.offsetParent) return; // not on screen (another tab): nothing to measure
    area.style.height = 'auto';
    area.style.height = `${area.scrollHeight + 2}px`;
  };
  area.addEventListener('input', fit);
  requestAnimationFrame(fit);

  const offer = settings.booking ?? null;
  const takes = /** @type {HTMLInputElement} */ (el('input', { type: 'checkbox', name: 'takesBookings', checked: !!offer }));
  takes.setAttribute('role', 'switch');
  const switchLabel = el('label', 'op-switch', takes, el('span', 'op-switch-text', 'Takes bookings'));
  const spaces = countField({ label: 'Spaces for bookings', name: 'spaces', value: offer?.spaces ?? Math.max(1, Math.round(lot.capacity / 10)), min: 1, max: lot.capacity, hint: `Up to the lot’s ${lot.capacity} spaces.` });
  const dailyFee = moneyField({ label: 'Fee per day', name: 'dailyFee', value: offer?.dailyFee ?? '0.00', hint: 'For each day a booking touches.' }, currency);
  const included = countField({ label: 'Fee covers', name: 'includedMinutes', value: offer?.includedMinutes ?? 0, min: 0, max: 1500, unit: 'min', hint: 'Minutes of each day.' });
  const rate = moneyField({ label: 'Then a rate of', name: 'rate', value: offer?.rate ?? price.hourly }, currency);
  const unit = countField({ label: 'For every', name: 'rateUnitMinutes', value: offer?.rateUnitMinutes ?? 60, min: 1, max: 1440, unit: 'min', hint: 'Started: 60 charges by the hour.' });
  const cap = moneyField({ label: 'Most a day costs', name: 'dailyCap', value: offer?.dailyCap ?? '', hint: 'Fee included; empty for no cap.' }, currency);
  const days = countField({ label: 'Longest booking', name: 'maximumDays', value: offer?.maximumDays ?? 7, min: 1, max: 90, unit: 'days', hint: 'Up to 90.' });
  const fields = el('div', 'op-booking', spaces.wrap, el('div', 'op-pair', dailyFee.wrap, included.wrap),
    el('div', 'op-pair', rate.wrap, unit.wrap), el('div', 'op-pair', cap.wrap, days.wrap));
  const off = el('p', 'muted small', 'Drivers cannot book this lot ahead. Turning bookings off keeps the bookings already made.');
  const showOffer = () => {
    fields.hidden = !takes.checked;
    off.hidden = takes.checked;
    takes.setAttribute('aria-checked', String(takes.checked));
  };
  takes.addEventListener('change', showOffer);
  showOffer();

  function collect() {
    const out = {
      price: { currency, hourly: hourly.input.value.trim(), dailyMax: dailyMax.input.value.trim() },
      hours: hours.value(),
      permits: permits.value(),
      rules: area.value.split('\n').map((r) => r.trim()).filter(Boolean),
    };
    if (takes.checked) {
      out.booking = {
        spaces: count(spaces.input.value), dailyFee: text(dailyFee.input.value), includedMinutes: count(included.input.value),
        rate: text(rate.input.value), rateUnitMinutes: count(unit.input.value), dailyCap: text(cap.input.value),
        maximumDays: count(days.input.value),
      };
      // When booked spaces can be used, where it differs from the lot's hours: not edited here, kept.
      if (offer?.hours) out.booking.hours = offer.hours;
    }
    return JSON.parse(JSON.stringify(out));
  }

  let baseline = JSON.stringify(collect());
  const dirty = () => JSON.stringify(collect()) !== baseline;
  const { state, discard, say, edited } = saveState(dirty, async () => {
    if (await confirm({ title: 'Discard your changes?', message: `${lot.name} keeps its settings as saved.`, confirm: 'Discard', danger: true, name: 'discard-lot' })) {
      saved(settings);
    }
  }, 'discard');

  const f = form({
    name: 'lot-settings',
    submit: 'Save',
    children: [
      group(`Price at the pay station (${currency})`, [prices], 'price'),
      group('Opening hours', [...hours.els, el('p', 'field-hint op-midnight', `Closing at ${midnight()} means at the end of the day.`)], 'hours'),
      group('Permit rules', [el('p', 'field-hint', 'When a permit is needed here. Outside these times anyone may park.'), ...permits.els], 'permits'),
      group('Rules', [rules.wrap], 'rules'),
      group('Bookings', [switchLabel, off, fields], 'booking'),
    ],
    async action() {
      const wanted = collect();
      say('Saving…');
      try {
        await putLotSettings(lot.id, wanted);
      } catch (err) {
        say('Not saved', 'dirty');
        f.error.show(err instanceof ProblemError ? perLine(problemText(err)) : problemText(err));
        f.error.el.scrollIntoView({ block: 'nearest' });
        return;
      }
      baseline = JSON.stringify(wanted);
      settings = wanted;
      discard.hidden = true;
      say('Saved. Drivers see it now.', 'saved');
    },
  });
  f.el.classList.add('op-form');
  f.el.addEventListener('input', edited);
  f.el.addEventListener('change', edited);
  const bar = el('div', 'op-save-bar', f.submit, discard, state);
  f.el.append(bar);
  discard.hidden = true;
  return { el: f.el, dirty };
}

/**
 * @param {import('./operate-parts.js').OperateState} shared
 * @returns {{el: HTMLElement, show: () => void, dirty: () => boolean}}
 */
export function lotsSection(shared) {
  const root = el('div', 'op-section');
  const status = statusLine();
  const host = el('div', 'op-lot');
  /** @type {{el: HTMLElement, dirty: () => boolean}|null} */
  let editor = null;
  let shownLot = '';
  /** @type {{el: HTMLElement, sync: () => void}|null} */
  let picker = null;
  /** @type {import('./operate-parts.js').Lot[]} */
  let lots = [];

  const mayLeave = async () => !editor?.dirty() || confirm({
    title: 'Discard your changes?', message: 'The lot you were editing keeps its settings as saved.', confirm: 'Discard', danger: true, name: 'discard-lot',
  });

  async function open(/** @type {import('./operate-parts.js').Lot} */ lot) {
    shownLot = lot.id;
    editor = null;
    host.replaceChildren();
    status.textContent = 'Loading…';
    try {
      const settings = await getLotSettings(lot.id);
      if (!shared.alive() || shownLot !== lot.id) return;
      show(lot, settings);
    } catch (err) {
      if (shared.alive() && shownLot === lot.id) status.textContent = problemText(err);
    }
  }

  function show(/** @type {import('./operate-parts.js').Lot} */ lot, /** @type {any} */ settings) {
    status.textContent = '';
    editor = lotForm(lot, settings, shared.site, (s) => show(lot, s));
    const facts = el('p', 'muted small op-facts', `${lot.capacity} spaces · `,
      el('a', { href: `/lots/${encodeURIComponent(lot.id)}` }, 'See it as drivers do'));
    host.replaceChildren(facts, editor.el, closuresPart(lot, shared.site, () => shared.alive() && shownLot === lot.id).el);
  }

  return {
    el: root,
    dirty: () => !!editor?.dirty(),
    show() {
      if (picker) {
        // Unsaved edits stay on screen whatever lot the Spots section chose meanwhile.
        if (editor?.dirty()) shared.lotId = shownLot;
        picker.sync();
        if (shownLot !== shared.lotId) open(/** @type {any} */ (lots.find((l) => l.id === shared.lotId)));
        return;
      }
      status.textContent = 'Loading…';
      root.replaceChildren(status, host);
      shared.lots.then((all) => {
        if (!shared.alive()) return;
        lots = all;
        if (!lots.length) { status.textContent = 'This site has no lots yet: they come with its site file.'; return; }
        picker = lotPicker(shared, lots, open, mayLeave);
        root.replaceChildren(picker.el, status, host);
        open(/** @type {any} */ (lots.find((l) => l.id === shared.lotId)));
      }, (err) => { if (shared.alive()) status.textContent = problemText(err); });
    },
  };
}
