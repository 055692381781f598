// Accounts (ACC-1…10, PRK-16, PRK-1's Operate): the person's own space, "You" in the
// navigation, is the Accounts panel. Each screen lives in its own module; they reach each
// other through the context below.

import { createPanel } from './panel.js';
import { signedOutView, signedInView } from './home.js';
import { registerView } from './register.js';
import { forgotPasswordView } from './forgot-password.js';
import { updateAccountView } from './update-account.js';
import { permitsView } from './permits.js';
import { deleteAccountView } from './delete-account.js';
import { walletView } from './wallet.js';
import { analyticsView } from './analytics.js';
import { operateView } from './operate.js';
import { moderationView } from '../trails/moderation.js';
import { outboxView } from './outbox-view.js';
import { writes, onChange as onOutboxChange, onSent } from './outbox.js';
import { toast } from '../shell/toast.js';
import { bookingsView } from '../parking/bookings-view.js';
import { scheduleView } from '../parking/schedule.js';
import { signedIn, hasDevice, cachedMe, fetchMe, onSessionChange } from './session.js';
import { startNotifications } from '../notifications/inbox.js';

/**
 * @typedef {object} AccountsContext
 * @property {ReturnType<typeof createPanel>} panel
 * @property {() => Promise<{id: string, name: string, timeZone: string, permits?: any[]}>} site the campus on the map: its lots, time zone and permits
 * @property {(lotId: string) => string|null} lotCode a lot's short code ("A", "NPS") when the map has it
 * @property {{home: () => import('./panel.js').View, signedOut: (o?: {notice?: string}) => import('./panel.js').View,
 *   register: () => import('./panel.js').View, forgot: () => import('./panel.js').View, update: () => import('./panel.js').View,
 *   permits: () => import('./panel.js').View, schedule: () => import('./panel.js').View,
 *   deleteAccount: () => import('./panel.js').View, bookings: () => import('./panel.js').View,
 *   wallet: () => import('./panel.js').View, outbox: () => import('./panel.js').View,
 *   analytics: () => import('./panel.js').View, moderation: () => import('./panel.js').View, inbox: () => import('./panel.js').View,
 *   operate: (tab?: string) => import('./panel.js').View}} views
 */

/** @param {{site: () => Promise<{id: string, timeZone: string}>, lotCode: (lotId: string) => string|null}} o */
export function startAccounts(o) {
  const panel = createPanel();
  // The person's link in the navigation says who is signed in and whether writes wait.
  const button = /** @type {HTMLElement} */ (document.getElementById('nav-me'));
  /** @type {ReturnType<typeof startNotifications>} */
  let notifications;
  /** @type {AccountsContext} */
  const ctx = {
    panel,
    site: o.site,
    lotCode: o.lotCode,
    views: {
      home: () => (signedIn() ? signedInView(ctx) : signedOutView(ctx)),
      signedOut: (opts) => signedOutView(ctx, opts),
      register: () => registerView(ctx),
      forgot: () => forgotPasswordView(ctx),
      update: () => updateAccountView(ctx),
      permits: () => permitsView(ctx),
      schedule: () => scheduleView(ctx),
      deleteAccount: () => deleteAccountView(ctx),
      bookings: () => bookingsView(ctx),
      wallet: () => walletView(ctx),
      analytics: () => analyticsView(ctx),
      operate: (tab) => operateView(ctx, { tab }),
      moderation: () => moderationView(),
      outbox: () => outboxView(),
      inbox: () => notifications.view(),
    },
  };

  const showWho = () => {
    const me = cachedMe();
    button.dataset.signedIn = String(signedIn());
    button.title = me?.username ? `Your space: ${me.username}` : 'Sign in or create an account';
  };
  onSessionChange(showWho);
  // PRK-19: the person button says when writes made offline wait to be sent or were refused.
  const showWaiting = () => {
    const all = writes();
    button.dataset.waiting = String(all.length);
    button.dataset.failed = String(all.some((w) => w.state === 'failed'));
    if (panel.view === 'account') panel.refresh();
  };
  onOutboxChange(showWaiting);
  showWaiting();
  onSent((w) => toast(`Sent: ${w.label}`));
  addEventListener('storage', (e) => { if (e.key === null || e.key?.startsWith('waymark.account')) showWho(); });
  showWho();

  // PRK-15: the bell shares this panel.
  notifications = startNotifications({
    panel,
    onSignIn: () => panel.open(ctx.views.signedOut({ notice: 'Sign in or create an account to watch lots: you are told when one fills up.' })),
  });

  return {
    panel,
    ctx,
    notifications,
    open: () => panel.open(ctx.views.home()),
    /**
     * Opens one screen of a signed-in account over the home screen (Back leads home); signed
     * out, the sign-in screen with `notice` saying why.
     * @param {'bookings'|'wallet'} name @param {string} notice @param {string} [focus] a booking to bring into view
     */
    openSignedIn(name, notice, focus) {
      if (!signedIn()) { panel.open(ctx.views.signedOut({ notice })); return; }
      panel.open(ctx.views.home());
      panel.push(name === 'bookings' && focus ? bookingsView(ctx, { focus }) : ctx.views[name]());
    },
    /** What this browser is to the server (tests). */
    get state() {
      return { signedIn: signedIn(), hasDevice: hasDevice(), username: cachedMe()?.username ?? null, view: panel.view };
    },
    refreshMe: () => (signedIn() ? fetchMe() : Promise.resolve(null)),
  };
}
