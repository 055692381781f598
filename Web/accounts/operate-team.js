// Operate › Operators (PRK-1): who runs the site, who granted each of them the role and when;
// an operator grants it to another account by username or email, and ends it with a confirm.

import { el, button, field, form } from './forms.js';
import { problemText } from '../shell/api.js';
import { confirm } from '../shell/dialog.js';
import { toast } from '../shell/toast.js';
import { cachedMe } from './session.js';
import { listSiteOperators, grantSiteOperator, revokeSiteOperator } from './api.js';
import { statusLine } from './operate-parts.js';

/** "Nov 23, 2025", the day at the site. */
export const siteDate = (/** @type {string} */ at, /** @type {string} */ timeZone) =>
  new Date(at).toLocaleDateString(undefined, { timeZone, year: 'numeric', month: 'short', day: 'numeric' });

/**
 * @param {import('./operate-parts.js').OperateState} shared
 * @param {() => void} leftSite after the person ended their own role
 * @returns {{el: HTMLElement, show: () => void}}
 */
export function operatorsSection(shared, leftSite) {
  const { site } = shared;
  const status = statusLine();
  const list = el('ul', 'op-list');
  list.dataset.testid = 'op-operators';
  const note = el('p', 'muted small');
  note.hidden = true;

  async function load() {
    try {
      const r = await listSiteOperators(site.id);
      if (!shared.alive()) return;
      const me = cachedMe()?.id;
      list.replaceChildren(...r.operators.map((o) => item(o, o.userId === me)));
      status.textContent = r.operators.length ? '' : 'Nobody has been granted this site yet. Grant the role below.';
      note.hidden = r.operators.some((o) => o.userId === me);
      note.textContent = `You run ${site.name} as an operator of the whole Waymark, so you are not listed.`;
    } catch (err) {
      if (shared.alive()) status.textContent = problemText(err);
    }
  }

  /** @param {{userId: string, name: string, grantedAt: string, grantedBy?: string}} o @param {boolean} self */
  function item(o, self) {
    const when = siteDate(o.grantedAt, site.timeZone);
    const end = button('End role', async () => {
      const ok = await confirm({
        title: self ? 'End your own role?' : `End ${o.name}’s role?`,
        message: self
          ? `You will no longer run ${site.name}: another operator would have to grant it to you again.`
          : `${o.name} will no longer change the lots, spots or operators of ${site.name}.`,
        confirm: 'End role', danger: true, name: 'end-role',
      });
      if (!ok) return;
      end.disabled = true;
      try {
        await revokeSiteOperator(site.id, o.userId);
        toast(self ? `You no longer run ${site.name}` : `${o.name} no longer runs ${site.name}`);
        if (self) { leftSite(); return; }
        await load();
      } catch (err) {
        end.disabled = false;
        status.textContent = problemText(err);
      }
    }, 'acc-button');
    end.dataset.action = 'end-role';
    end.setAttribute('aria-label', self ? 'End your own role' : `End ${o.name}’s role`);
    const li = el('li', 'op-item',
      el('div', 'op-item-text',
        el('span', 'op-item-title', o.name, self ? el('span', 'op-you', ' (you)') : ''),
        el('span', 'muted small', o.grantedBy ? `Granted by ${o.grantedBy} on ${when}` : `Granted on ${when}`)),
      end);
    li.dataset.name = o.name;
    return li;
  }

  const login = field({ label: 'Username or email', name: 'login', autocomplete: 'off', required: true, maxLength: 254 });
  const granted = statusLine('op-saved');
  const grant = form({
    name: 'grant-operator',
    submit: 'Grant role',
    children: [login.wrap],
    async action() {
      granted.textContent = '';
      const o = await grantSiteOperator(site.id, login.input.value.trim());
      if (!shared.alive()) return;
      login.input.value = '';
      granted.textContent = `${o.name} now runs ${site.name}.`;
      await load();
    },
  });
  grant.el.classList.add('op-inline');
  const adding = el('section', 'op-block',
    el('h4', 'op-subhead', 'Grant the role'),
    el('p', 'muted small', 'An operator changes the lots and spots of this site and may grant the role to others. They need an account first.'),
    grant.el, granted);

  const root = el('div', 'op-section', status, list, note, adding);
  return {
    el: root,
    show() {
      if (!list.childElementCount) status.textContent = 'Loading…';
      load();
    },
  };
}
