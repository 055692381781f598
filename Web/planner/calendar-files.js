// Calendars in and out (PLN-10): import an .ics file from any calendar app, with a report of
// what came in and what was left out and why; download a calendar as .ics; and a private
// subscription address that Apple, Google or Outlook calendars follow, shown once (Waymark keeps
// only a fingerprint), with a new one revoking the old.

import { el } from '../shell/dom.js';
import { problemText } from '../shell/api.js';
import { confirm } from '../shell/dialog.js';
import { toast } from '../shell/toast.js';
import { importCalendarFile, exportCalendar, getSubscription, createSubscription, deleteSubscription } from './api.js';
import { checkbox } from './form-parts.js';
import { localZone } from './wall-time.js';
import { icon } from './icons.js';

/** "Import a calendar file" and the report of the last import. @param {import('./index.js').PlanContext} ctx @param {() => void} imported */
export function importControl(ctx, imported) {
  const report = el('div', { class: 'plan-import-report', role: 'status', 'aria-live': 'polite' });
  const input = el('input', { type: 'file', id: 'plan-import-file', accept: '.ics,.ical,.ifb,text/calendar', hidden: true,
    on: { change: () => { const f = input.files?.[0]; input.value = ''; if (f) run(f); } } });
  const button = el('button', { type: 'button', class: 'plan-button', id: 'plan-import', on: { click: () => input.click() } },
    icon('plus'), 'Import a calendar file');
  return { button, input, report };

  /** @param {File} file */
  async function run(file) {
    button.disabled = true;
    report.replaceChildren(el('p', 'plan-status', `Reading “${file.name}”…`));
    try {
      const r = await importCalendarFile(file, { name: file.name, timeZone: localZone() });
      if (!ctx.alive()) return;
      ctx.calendarsChanged();
      report.replaceChildren(...reportLines(r, file.name));
      toast(`“${file.name}” imported into ${r.calendar.name}`);
      imported();
    } catch (err) {
      report.replaceChildren(el('p', 'plan-status plan-error', problemText(err)),
        el('p', 'plan-hint', 'Export the calendar again from its app as an .ics file (iCalendar) and choose that file.'));
    } finally {
      button.disabled = false;
    }
  }
}

/** @param {any} r CalendarImportReport @param {string} name */
function reportLines(r, name) {
  const n = (/** @type {number} */ k, /** @type {string} */ one) => `${k} ${one}${k === 1 ? '' : 's'}`;
  const done = [r.added ? `${n(r.added, 'event')} added` : null, r.updated ? `${n(r.updated, 'event')} updated` : null].filter(Boolean);
  return [
    el('p', null, el('strong', null, `From “${name}” into `), el('a', { href: `/plan/calendars/${encodeURIComponent(r.calendar.id)}` }, r.calendar.name),
      `: ${done.length ? done.join(', ') : 'nothing new'}.`),
    ...r.notes.map((/** @type {string} */ note) => el('p', 'plan-hint', note)),
    r.skipped.length ? el('details', { open: r.skipped.length <= 5 },
      el('summary', null, `${n(r.skipped.length, 'item')} left out`),
      el('ul', null, r.skipped.map((/** @type {any} */ s) =>
        el('li', null, s.title ? el('strong', null, `${s.title}: `) : null, s.reason, el('span', 'plan-hint', ` (line ${s.line})`))))) : null,
  ];
}

/** Download and subscription for one calendar. @param {import('./index.js').PlanContext} ctx @param {any} calendar */
export function shareSection(ctx, calendar) {
  const travel = checkbox({ name: 'withTravel', label: 'Add the trips of the coming two weeks as events' });
  const download = el('button', { type: 'button', class: 'plan-button', id: 'plan-export', on: { click: save } }, 'Download .ics');
  const sub = el('div', { class: 'plan-subscription', 'aria-live': 'polite' }, el('p', 'plan-status', 'Checking the subscription address…'));
  const section = el('section', { class: 'plan-section', 'aria-labelledby': 'plan-share-title' },
    el('h3', { class: 'plan-subheading', id: 'plan-share-title' }, 'In other calendar apps'),
    el('p', 'plan-hint', 'Download the calendar as a file any calendar app imports, or subscribe to it so the app follows your changes.'),
    travel.label, el('div', 'plan-actions', download), sub);
  refresh();
  return section;

  async function save() {
    download.disabled = true;
    try {
      const blob = await exportCalendar(calendar.id, travel.input.checked);
      const a = el('a', { href: URL.createObjectURL(blob), download: `${calendar.name}.ics` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    } catch (err) { toast(problemText(err), 5000); } finally { download.disabled = false; }
  }

  async function refresh(/** @type {any} */ made = null) {
    let s = made;
    try { s ??= await getSubscription(calendar.id); } catch (err) {
      sub.replaceChildren(el('p', 'plan-status plan-error', problemText(err)));
      return;
    }
    if (!ctx.alive()) return;
    const make = el('button', { type: 'button', class: 'plan-button', id: 'plan-subscribe', on: { click: create } },
      s.active ? 'Make a new address' : 'Make a subscription address');
    const parts = [];
    if (s.path) {
      const url = new URL(s.path, location.origin).href;
      const field = el('input', { type: 'text', readOnly: true, value: url, class: 'plan-input', id: 'plan-subscription-url', 'aria-label': 'Subscription address' });
      parts.push(el('p', null, 'Your address. Copy it now: for your safety Waymark does not show it again.'),
        el('div', 'plan-subscription-address', field,
          el('button', { type: 'button', class: 'plan-button', on: { click: () => copy(url, field) } }, 'Copy')),
        el('p', 'plan-actions', el('a', { class: 'plan-button', href: url.replace(/^https?:/, 'webcal:') }, 'Open in my calendar app')),
        el('p', 'plan-hint', 'Anyone who has this address can see this calendar. Calendar apps check it about once an hour.'));
    } else if (s.active) {
      const read = s.lastFetchedAt ? `last read by a calendar app ${new Intl.DateTimeFormat(navigator.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(s.lastFetchedAt))}`
        : 'not read by any calendar app yet';
      parts.push(el('p', null, `A subscription address is on${s.includeTravel ? ', with trips' : ''}: ${read}.`),
        el('p', 'plan-hint', 'Lost it? Make a new address; the old one stops working.'));
    } else {
      parts.push(el('p', 'plan-hint', 'No subscription address yet.'));
    }
    parts.push(el('div', 'plan-actions', make,
      s.active ? el('button', { type: 'button', class: 'plan-button danger', id: 'plan-unsubscribe', on: { click: stop } }, 'Stop the address') : null));
    sub.replaceChildren(...parts);

    async function create() {
      if (s.active && !await confirm({ name: 'new-subscription', title: 'Make a new address?',
        message: 'The old address stops working: calendar apps that follow it stop updating until you give them the new one.', confirm: 'Make a new address' })) return;
      try { refresh(await createSubscription(calendar.id, travel.input.checked)); } catch (err) { toast(problemText(err), 5000); }
    }

    async function stop() {
      if (!await confirm({ name: 'stop-subscription', title: 'Stop the subscription address?',
        message: 'Calendar apps that follow it stop receiving this calendar.', confirm: 'Stop the address', danger: true })) return;
      try { await deleteSubscription(calendar.id); toast('The address no longer works'); refresh(); } catch (err) { toast(problemText(err), 5000); }
    }
  }

  /** @param {string} url @param {HTMLInputElement} field */
  async function copy(url, field) {
    try { await navigator.clipboard.writeText(url); toast('Address copied'); } catch { field.select(); toast('Select the address and copy it'); }
  }
}
