// The first Accounts screen. Signed out: sign in, create an account, forgot password, and what
// works without an account (ACC-8). Signed in: "Hello, <username>", then Update Account, Your
// Permits, Weekly Schedule, Your Bookings, Wallet, Notifications (the inbox, PRK-15), Operate
// (people who run a site, PRK-1), Analytics and Trail moderation (operators only, PRK-17, TRL-12),
// Log Out, and Delete Account last, with its warning.

import { el, button, field, passwordField, form } from './forms.js';
import { signIn, signOut, cachedMe, fetchMe, signedIn } from './session.js';
import { toast } from '../shell/toast.js';
import { ProblemError, problemText } from '../shell/api.js';
import { exportMyData } from './api.js';
import { writes } from './outbox.js';
import { operatedSites, knownOperatedSites } from './operate-parts.js';

/** @typedef {import('./index.js').AccountsContext} AccountsContext */

/**
 * @param {AccountsContext} ctx
 * @param {{notice?: string}} [o] a message to show above the form (why we are back here)
 * @returns {import('./panel.js').View}
 */
export function signedOutView(ctx, o = {}) {
  return {
    name: 'signed-out',
    title: 'Account',
    render() {
      const parts = [];
      if (o.notice) {
        const n = el('p', 'notice', o.notice);
        n.setAttribute('role', 'status');
        n.dataset.testid = 'notice';
        parts.push(n);
      }
      parts.push(el('p', 'lead', 'Sign in to keep your permits and weekly schedule on all your devices.'));
      const username = field({ label: 'Username', name: 'username', autocomplete: 'username', required: true, maxLength: 254 });
      const password = passwordField({ label: 'Password', name: 'password', autocomplete: 'current-password' });
      const f = form({
        name: 'sign-in',
        submit: 'Sign In',
        children: [username.wrap, password.wrap],
        async action() {
          const me = await signIn(username.input.value.trim(), password.input.value);
          toast(`Signed in as ${me.username}`);
          ctx.panel.reset(signedInView(ctx));
        },
      });
      const links = el('div', 'acc-links');
      links.append(
        button('Forgot password?', () => ctx.panel.push(ctx.views.forgot()), 'link-button'),
        button('Create an account', () => ctx.panel.push(ctx.views.register()), 'acc-button'),
      );
      const without = el('section', 'acc-section');
      without.append(
        el('h3', '', 'Without an account'),
        el('p', 'muted', 'Waymark works without an account: your permits and schedule stay with this browser, and move to your account when you register or sign in here.'),
        menu([
          ['permits', 'Your Permits', () => ctx.panel.push(ctx.views.permits())],
          ['schedule', 'Weekly Schedule', () => ctx.panel.push(ctx.views.schedule())],
        ]),
      );
      parts.push(...waitingNote(ctx), f.el, links, without);
      return parts;
    },
  };
}

/**
 * A line at the top when writes made offline wait or were refused (PRK-19).
 * @param {AccountsContext} ctx
 */
function waitingNote(ctx) {
  const all = writes();
  if (!all.length) return [];
  const failed = all.filter((w) => w.state === 'failed').length;
  const text = failed
    ? `${failed} ${failed === 1 ? 'change was' : 'changes were'} not accepted`
    : `${all.length} ${all.length === 1 ? 'change waits' : 'changes wait'} to be sent`;
  const b = button(text, () => ctx.panel.push(ctx.views.outbox()), `outbox-note${failed ? ' failed' : ''}`);
  b.dataset.action = 'outbox';
  return [b];
}

/** @param {[string, string, () => void, string?][]} items */
function menu(items) {
  const list = el('ul', 'acc-menu');
  for (const [id, label, go, cls] of items) {
    const li = el('li');
    const b = button(label, go, `acc-menu-item${cls ? ` ${cls}` : ''}`);
    b.dataset.action = id;
    li.append(b);
    list.append(li);
  }
  return list;
}

/**
 * @param {AccountsContext} ctx
 * @returns {import('./panel.js').View}
 */
export function signedInView(ctx) {
  let alive = true;
  return {
    name: 'account',
    title: 'Account',
    leave() { alive = false; },
    render() {
      const me = cachedMe();
      const hello = el('div', 'hello');
      const avatar = /** @type {HTMLImageElement} */ (el('img', 'avatar'));
      avatar.alt = '';
      avatar.width = 56;
      avatar.height = 56;
      const name = el('h3', 'hello-name');
      name.dataset.testid = 'hello';
      const show = (/** @type {import('./session.js').Me|null} */ m) => {
        name.textContent = `Hello, ${m?.username ?? ''}`;
        if (m?.pictureURL) avatar.src = m.pictureURL;
        avatar.hidden = !m?.pictureURL;
      };
      show(me);
      hello.append(avatar, name);
      // The name on record may have changed on another device: check, quietly. Being an
      // operator is granted on the server at any time, so the menu follows the answer too.
      fetchMe().then((m) => { if (alive) { show(m); isOperator = m?.isOperator === true; place(); } }).catch((err) => {
        if (alive && err instanceof ProblemError && err.status === 401 && !signedIn()) {
          ctx.panel.reset(signedOutView(ctx, { notice: 'Your session has ended. Please sign in again.' }));
        }
      });

      const items = menu([
        ['update', 'Update Account', () => ctx.panel.push(ctx.views.update())],
        ['permits', 'Your Permits', () => ctx.panel.push(ctx.views.permits())],
        ['schedule', 'Weekly Schedule', () => ctx.panel.push(ctx.views.schedule())],
        ['bookings', 'Your Bookings', () => ctx.panel.push(ctx.views.bookings())],
        ['wallet', 'Wallet', () => ctx.panel.push(ctx.views.wallet())],
        ['inbox', 'Notifications', () => ctx.panel.push(ctx.views.inbox())],
        ['logout', 'Log Out', async () => {
          await signOut();
          toast('Signed out');
          ctx.panel.reset(signedOutView(ctx));
        }, 'plain'],
      ]);

      // Entries only some people have, before Log Out: Operate for whoever runs a site, Analytics
      // and Trail moderation for operators of the whole Waymark.
      const [operateItem, ...operatorItems] = [...menu([
        ['operate', 'Operate', () => ctx.panel.push(ctx.views.operate())],
        ['analytics', 'Analytics', () => ctx.panel.push(ctx.views.analytics())],
        ['moderation', 'Trail moderation', () => ctx.panel.push(ctx.views.moderation())],
      ]).children].map((x) => /** @type {HTMLElement} */ (x));
      let isOperator = me?.isOperator === true;
      let runsSite = (knownOperatedSites()?.length ?? 0) > 0;
      const place = () => {
        const wanted = [...(runsSite ? [operateItem] : []), ...(isOperator ? operatorItems : [])];
        for (const item of [operateItem, ...operatorItems]) if (!wanted.includes(item)) item.remove();
        for (const item of wanted) items.insertBefore(item, items.lastElementChild);
      };
      place();
      // A site's role is granted and ended by other operators at any time: ask each visit.
      operatedSites().then((sites) => { if (alive) { runsSite = sites.length > 0; place(); } }).catch(() => {});

      const yours = el('section', 'acc-section');
      const download = button('Download my data', async () => {
        try {
          const data = await exportMyData();
          const file = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
          const link = el('a', { href: URL.createObjectURL(file), download: `waymark-data-${new Date().toISOString().slice(0, 10)}.json` });
          link.click();
          setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
        } catch (err) {
          toast(problemText(err));
        }
      }, 'acc-button');
      download.dataset.action = 'export';
      yours.append(
        el('h3', '', 'Your data'),
        el('p', '', 'Download a copy of everything Waymark keeps about you — profile, bookings, wallet, reviews, calendars, hikes and messages — as a JSON file.'),
        download,
        el('p', 'hint', el('a', { href: '/privacy.html', target: '_blank', rel: 'noopener' }, 'What is kept, for how long, and who sees it')),
      );

      const danger = el('section', 'acc-section danger-zone');
      danger.append(
        el('h3', '', 'Delete Account'),
        el('p', 'warning', 'Deleting your account erases your profile, permits, weekly schedule and everything else Waymark keeps about you. Bookings still to come are cancelled and refunded first; money left in your wallet is not paid out. This cannot be undone.'),
      );
      const del = button('Delete Account', () => ctx.panel.push(ctx.views.deleteAccount()), 'acc-button danger');
      del.dataset.action = 'delete';
      danger.append(del);
      return [hello, ...waitingNote(ctx), items, yours, danger];
    },
  };
}
