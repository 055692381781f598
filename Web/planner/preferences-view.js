// How the person likes to travel (PLN-4): eco mode, how far they walk and cycle (in their
// units), a bike or bike sharing, the hours they take public transport, a car or car sharing,
// a ride-sharing service, and the window the plan keeps 30 minutes of for lunch. Checked as
// the person types; Save waits until all is right.

import { el } from '../shell/dom.js';
import { problemText } from '../shell/api.js';
import { toast } from '../shell/toast.js';
import { getPreferences, putPreferences } from './api.js';
import { field, group, checkbox, liveChecks } from './form-parts.js';
import { distanceUnit, duration, wallClock } from './format.js';
import { minuteOfDay } from './wall-time.js';
import { NOTHING } from './layers.js';
import { reporting, setReporting } from './leave-position.js';

const LUNCH_MINUTES = 30;

/** @param {import('./index.js').PlanContext} ctx */
export function preferencesView(ctx) {
  const root = el('div', 'plan-preferences-screen',
    el('h2', { class: 'plan-heading', id: 'plan-preferences-title', tabIndex: -1 }, 'How you travel'),
    el('p', { class: 'plan-status', role: 'status' }, 'Getting your preferences…'));
  ctx.draw(NOTHING);
  (async () => {
    try {
      const prefs = await getPreferences();
      if (ctx.alive()) root.replaceChildren(root.firstChild, build(prefs));
    } catch (err) {
      if (ctx.alive()) root.replaceChildren(root.firstChild, el('p', 'plan-status plan-error', problemText(err)));
    }
  })();
  return root;

  /** @param {any} p TravelPreferences */
  function build(p) {
    const miles = distanceUnit() === 'mi';
    const unit = miles ? 'mi' : 'km';
    const factor = miles ? 1609.344 : 1000;
    const shown = (metres) => String(Math.round((metres / factor) * 10) / 10);
    const number = (name, value, max) => el('input', { type: 'number', name, class: 'plan-input', min: 0, max, step: 0.1, inputMode: 'decimal', value });
    const time = (name, value) => el('input', { type: 'time', name, class: 'plan-input', value, step: 300 });

    const eco = checkbox({ label: 'Eco mode: favour walking, cycling and public transport (a minute by car counts twice)', name: 'ecoMode', checked: p.ecoMode });
    const walk = number('maxWalking', shown(p.maxWalkingMetres), Math.floor(50_000 / factor * 10) / 10);
    const bike = number('maxBiking', shown(p.maxBikingMetres), Math.floor(300_000 / factor * 10) / 10);
    const ownsBike = checkbox({ label: 'I have a bike', name: 'ownsBike', checked: p.ownsBike });
    const bikeSharing = checkbox({ label: 'I use bike sharing', name: 'bikeSharing', checked: p.bikeSharing });
    const transitFrom = time('transitFrom', p.transitFrom === '24:00' ? '00:00' : p.transitFrom);
    const transitTo = time('transitTo', p.transitTo === '24:00' ? '00:00' : p.transitTo);
    const ownsCar = checkbox({ label: 'I have a car', name: 'ownsCar', checked: p.ownsCar });
    const carSharing = checkbox({ label: 'I use car sharing', name: 'carSharing', checked: p.carSharing });
    const rideShare = el('input', { type: 'text', name: 'rideSharingService', class: 'plan-input', maxLength: 60, autocomplete: 'off', value: p.rideSharingService ?? '' });
    const lunch = checkbox({ label: 'Keep 30 minutes for lunch', name: 'lunch', checked: !!p.lunchFrom });
    const lunchFrom = time('lunchFrom', p.lunchFrom ?? '11:30');
    const lunchTo = time('lunchTo', p.lunchTo ?? '14:30');

    const fWalk = field({ label: `Walk at most (${unit})`, control: walk, key: 'walk' });
    const fBike = field({ label: `Cycle at most (${unit})`, control: bike, key: 'bike' });
    const midnight = `${wallClock('00:00')} means until the end of the day.`;
    const fFrom = field({ label: 'From', control: transitFrom, key: 'transitFrom', cls: 'half' });
    const fTo = field({ label: 'Until', control: transitTo, key: 'transitTo', cls: 'half', hint: midnight });
    const fRide = field({ label: 'Ride-sharing service (optional)', control: rideShare, key: 'ride',
      hint: 'The one you use, such as a taxi app; leave it empty if you use none.' });
    const fLunchFrom = field({ label: 'Not before', control: lunchFrom, key: 'lunchFrom', cls: 'half' });
    const fLunchTo = field({ label: 'Done by', control: lunchTo, key: 'lunchTo', cls: 'half' });
    const lunchRow = el('div', 'plan-row', fLunchFrom.wrap, fLunchTo.wrap);
    // This device's choice, in effect at once: it is not part of what Save sends.
    const fromHere = checkbox({ label: 'Use where I am to tell me when to leave', name: 'leaveFromHere', checked: reporting(), on: { change: async () => {
      try {
        await setReporting(fromHere.input.checked);
        toast(fromHere.input.checked ? 'Your position is sent while Waymark is open.' : 'Your position is no longer sent, and the last one is forgotten.');
      } catch (err) { failure.textContent = problemText(err); failure.hidden = false; }
    } } });

    const save = el('button', { type: 'submit', class: 'plan-button primary', id: 'plan-preferences-save' }, 'Save');
    const why = el('p', { class: 'plan-why-disabled', 'aria-live': 'polite' });
    const failure = el('p', { class: 'plan-form-error', role: 'alert', hidden: true });
    const form = el('form', { class: 'plan-form', id: 'plan-preferences-form', dataset: { form: 'preferences' }, noValidate: true },
      eco.label,
      group({ legend: 'Walking and cycling', key: 'active', children: [fWalk.wrap, fBike.wrap, ownsBike.label, bikeSharing.label] }).wrap,
      group({ legend: 'Public transport', key: 'transit', children: [el('div', 'plan-row', fFrom.wrap, fTo.wrap)] }).wrap,
      group({ legend: 'Cars', key: 'cars', children: [ownsCar.label, carSharing.label, fRide.wrap] }).wrap,
      group({ legend: 'Lunch', key: 'lunch', children: [lunch.label, lunchRow] }).wrap,
      group({ legend: 'Time to leave', key: 'leave', children: [fromHere.label, el('p', 'plan-hint',
        'For the first event of the day. Only your latest position is kept, until the end of the day; it is sent while Waymark is open, '
        + 'at most every two hours or when you have moved more than 500 m. Each calendar can turn the reminders off.')] }).wrap,
      failure, el('div', 'plan-actions', save), why);

    // A limit shown rounded (2,000 m is "1.2 mi") is saved as it was unless the person changed it.
    const saved = new Map([[walk, p.maxWalkingMetres], [bike, p.maxBikingMetres]]);
    const metres = (input) => {
      if (input.value === shown(saved.get(input))) return saved.get(input);
      const v = Number(input.value);
      return input.value.trim() !== '' && Number.isFinite(v) ? Math.round(v * factor) : NaN;
    };
    const end = (input) => (input.value === '00:00' ? 1440 : minuteOfDay(input.value));
    const errors = () => {
      /** @type {Record<string, string>} */
      const e = {};
      const w = metres(walk);
      const b = metres(bike);
      if (!(w >= 0 && w <= 50_000)) e.walk = `From 0 to ${Math.floor(50_000 / factor)} ${unit}.`;
      if (!(b >= 0 && b <= 300_000)) e.bike = `From 0 to ${Math.floor(300_000 / factor)} ${unit}.`;
      const tf = minuteOfDay(transitFrom.value);
      const tt = end(transitTo);
      if (tf == null) e.transitFrom = 'Choose when you start taking public transport.';
      if (tt == null) e.transitTo = 'Choose until when.';
      else if (tf != null && tt <= tf) e.transitTo = 'The end must be after the start.';
      if (rideShare.value.trim().length > 60) e.ride = 'At most 60 characters.';
      if (lunch.input.checked) {
        const lf = minuteOfDay(lunchFrom.value);
        const lt = end(lunchTo);
        if (lf == null) e.lunchFrom = 'Choose when lunch can start.';
        if (lt == null) e.lunchTo = 'Choose when lunch must end.';
        else if (lf != null && lt - lf < LUNCH_MINUTES) e.lunchTo = `The window must be at least ${duration(LUNCH_MINUTES)} long.`;
      }
      return e;
    };
    const checks = liveChecks({ errors, lines: {
      walk: { error: fWalk.error, controls: [walk] },
      bike: { error: fBike.error, controls: [bike] },
      transitFrom: { error: fFrom.error, controls: [transitFrom] },
      transitTo: { error: fTo.error, controls: [transitTo, transitFrom] },
      ride: { error: fRide.error, controls: [rideShare] },
      lunchFrom: { error: fLunchFrom.error, controls: [lunchFrom] },
      lunchTo: { error: fLunchTo.error, controls: [lunchTo, lunchFrom] },
    }, save, why, form });
    const arrange = () => { lunchRow.hidden = !lunch.input.checked; checks.update(); };
    lunch.input.addEventListener('change', arrange);
    arrange();

    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      if (Object.keys(errors()).length) return;
      save.disabled = true;
      failure.hidden = true;
      /** @type {any} */
      const body = {
        ecoMode: eco.input.checked, maxWalkingMetres: metres(walk), maxBikingMetres: metres(bike),
        ownsBike: ownsBike.input.checked, bikeSharing: bikeSharing.input.checked,
        transitFrom: transitFrom.value, transitTo: transitTo.value === '00:00' ? '24:00' : transitTo.value,
        ownsCar: ownsCar.input.checked, carSharing: carSharing.input.checked,
      };
      if (rideShare.value.trim()) body.rideSharingService = rideShare.value.trim();
      if (lunch.input.checked) Object.assign(body, { lunchFrom: lunchFrom.value, lunchTo: lunchTo.value === '00:00' ? '24:00' : lunchTo.value });
      try {
        await putPreferences(body);
        toast('Travel preferences saved: your plans follow them now.');
        save.disabled = false;
      } catch (err) {
        failure.textContent = problemText(err);
        failure.hidden = false;
        save.disabled = false;
      }
    });
    return form;
  }
}
