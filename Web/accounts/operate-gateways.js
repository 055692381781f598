// Operate › Sensors › Gateways of this site (PRK-1): the gateways this site's operators made. Adding one
// or giving it a new secret shows the secret once, here, with a button to copy it; the server
// keeps only a hash. A gateway made here reports for this site's sensors only.

import { el, button, field, form } from './forms.js';
import { problemText } from '../shell/api.js';
import { confirm } from '../shell/dialog.js';
import { toast } from '../shell/toast.js';
import { age } from '../parking/format.js';
import { dayText, clockText } from '../shell/zoned-time.js';
import { listSiteGateways, addSiteGateway, replaceSiteGatewaySecret, revokeSiteGateway } from './api.js';
import { statusLine } from './operate-parts.js';
import { siteDate } from './operate-team.js';

/** @typedef {{id: string, name: string, createdAt: string, revokedAt?: string, lastReportAt?: string}} SiteGateway */

/**
 * @param {import('./operate-parts.js').OperateState} shared
 * @returns {{el: HTMLElement, load: () => Promise<void>}}
 */
export function gatewaysManager(shared) {
  const { site } = shared;
  const tz = site.timeZone;
  const status = statusLine();
  const list = el('ul', 'op-list op-gateways');
  list.dataset.testid = 'op-gateways';
  const secretPanel = el('div', 'op-secret');
  secretPanel.dataset.testid = 'op-gateway-secret';
  secretPanel.hidden = true;
  secretPanel.setAttribute('role', 'status');

  async function load() {
    try {
      const r = await listSiteGateways(site.id);
      if (!shared.alive()) return;
      const now = new Date();
      list.replaceChildren(...r.gateways.map((/** @type {SiteGateway} */ g) => item(g, now)));
      status.textContent = r.gateways.length ? '' : 'No gateway has been made for this site yet. Add one below; its secret is shown once.';
    } catch (err) {
      if (shared.alive()) status.textContent = problemText(err);
    }
  }

  /** The secret, once: to be copied into the gateway's settings now. */
  function showSecret(/** @type {string} */ name, /** @type {string} */ secret) {
    const code = el('code', 'op-secret-value', secret);
    const copy = button('Copy', async () => {
      try {
        await navigator.clipboard.writeText(secret);
        toast('Secret copied');
      } catch {
        // Without clipboard access (an insecure origin), the text is selected for the person to copy.
        getSelection()?.selectAllChildren(code);
      }
    }, 'acc-button');
    copy.dataset.action = 'copy-secret';
    const done = button('Done', () => { secretPanel.hidden = true; secretPanel.replaceChildren(); }, 'link-button');
    done.dataset.action = 'secret-done';
    secretPanel.replaceChildren(
      el('p', 'op-item-title', `Secret for ${name}`),
      el('p', 'muted small', 'Shown only now: Waymark keeps no copy. Put it in the gateway’s settings; it sends it as “Authorization: Bearer” and the secret.'),
      el('div', 'op-secret-row', code, copy), done);
    secretPanel.hidden = false;
    secretPanel.scrollIntoView({ block: 'nearest' });
  }

  /** @param {SiteGateway} g @param {Date} now */
  function item(g, now) {
    const lines = [`Added ${siteDate(g.createdAt, tz)}`];
    if (g.revokedAt) lines.push(`revoked ${siteDate(g.revokedAt, tz)}`);
    const last = g.lastReportAt
      ? el('span', null, ' · last report ', el('time', { dateTime: g.lastReportAt, title: `${dayText(new Date(g.lastReportAt), tz)}, ${clockText(new Date(g.lastReportAt), tz)}` },
        age(new Date(g.lastReportAt), now)))
      : el('span', null, ' · no report yet');
    const text = el('div', 'op-item-text',
      el('span', 'op-item-title', g.name, g.revokedAt ? el('span', 'op-revoked', ' (revoked)') : ''),
      el('span', 'muted small', lines.join(' · '), last));
    const li = el('li', `op-item${g.revokedAt ? ' op-item-revoked' : ''}`, text);
    li.dataset.name = g.name;
    if (g.revokedAt) return li;

    const rekey = button('New secret', async () => {
      const ok = await confirm({
        title: `New secret for ${g.name}?`,
        message: `Its present secret stops working at once: ${g.name}’s reports are refused until it is given the new one.`,
        confirm: 'Make new secret', name: 'new-gateway-secret',
      });
      if (!ok) return;
      rekey.disabled = true;
      try {
        const r = await replaceSiteGatewaySecret(site.id, g.id);
        if (!shared.alive()) return;
        showSecret(g.name, r.secret);
        await load();
      } catch (err) {
        rekey.disabled = false;
        status.textContent = problemText(err);
      }
    }, 'acc-button');
    rekey.dataset.action = 'new-secret';
    rekey.setAttribute('aria-label', `New secret for ${g.name}`);
    const revoke = button('Revoke', async () => {
      const ok = await confirm({
        title: `Revoke ${g.name}?`,
        message: `Its reports are refused from now on and its spots turn unknown once their sensors go quiet. This cannot be undone; add a gateway again to replace it.`,
        confirm: 'Revoke', danger: true, name: 'revoke-gateway',
      });
      if (!ok) return;
      revoke.disabled = true;
      try {
        await revokeSiteGateway(site.id, g.id);
        toast(`${g.name} revoked`);
        await load();
      } catch (err) {
        revoke.disabled = false;
        status.textContent = problemText(err);
      }
    }, 'acc-button');
    revoke.dataset.action = 'revoke-gateway';
    revoke.setAttribute('aria-label', `Revoke ${g.name}`);
    li.append(el('div', 'op-item-actions', rekey, revoke));
    return li;
  }

  const name = field({ label: 'Name', name: 'gateway-name', autocomplete: 'off', required: true, maxLength: 80 });
  const adding = form({
    name: 'add-gateway',
    submit: 'Add gateway',
    children: [name.wrap],
    async action() {
      const r = await addSiteGateway(site.id, name.input.value.trim());
      if (!shared.alive()) return;
      name.input.value = '';
      showSecret(r.gateway.name, r.secret);
      await load();
    },
  });
  adding.el.classList.add('op-inline');

  const h = el('h4', 'op-subhead', 'Gateways of this site');
  h.id = `op-gateways-${site.id}`;
  const root = el('section', 'op-sensor-block op-gateway-admin', h,
    el('p', 'muted small', `A gateway made here reports for the sensors of ${site.name} only. Name it after where it hangs, e.g. “Structure roof”.`),
    status, list, secretPanel, adding.el);
  root.setAttribute('aria-labelledby', h.id);
  return { el: root, load };
}
