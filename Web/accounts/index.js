// Accounts (ACC-1…10, PRK-16, PRK-1's Operate): the person's own space, "You" in the
// navigation, is the Accounts panel. Each screen lives in its own module, loaded the first time
// it is shown (opening the app needs only the panel, the bell and the person's tab); screens
// reach each other through the context below.

import { createPanel, onDemand } from './panel.js';
import { writes, onChange as onOutboxChange, onSent } from './outbox.js';
import { toast } from '../shell/toast.js';
import { signedIn, hasDevice, cachedMe, fetchMe, onSessionChange } from './session.js';
import { startNotifications } from '../notifications/inbox.js';

/**
 * @typedef {object} AccountsContext
 * @property {ReturnType<typeof createPanel>} panel
 * @property {() => Promise<{id: string, name: string, timeZone: string, permits?: any[]}>} site the campus on the map: its lots, time zone and permits
 * @property {(lotId: string) => string|null} lotCode a lot's short code ("A", "NPS") when the map has it
 * @property {() => {id: string, name: string, code?: string}[]} lots the lots of the campus on the map, as last read
 * @property {{home: () => import('./panel.js').View, signedOut: (o?: {notice?: string}) => import('./panel.js').View,
 *   register: () => import('./panel.js').View, forgot: () => import('./panel.js').View, update: () => import('./panel.js').View,
 *   permits: () => import('./panel.js').View, schedule: () => import('./panel.js').View,
 *   deleteAccount: () => import('./panel.js').View, bookings: (focus?: string) => import('./panel.js').View,
 *   weekly: (seriesId: string) => import('./panel.js').View,
 *   wallet: () => import('./panel.js').View, outbox: () => import('./panel.js').View,
 *   analytics: () => import('./panel.js').View, moderation: () => import('./panel.js').View, inbox: () => import('./panel.js').View,
 *   operate: (tab?: string) => import('./panel.js').View}} views each call a new screen; bookings' focus: a booking to bring into view
 */

/** @param {{site: () => Promise<{id: string, timeZone: string}>, lotCode: (lotId: string) => string|null,
 *   lots: () => {id: string, name: string, code?: string}[]}} o */
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
    lots: o.lots,
    views: {
      home: () => (signedIn()
        ? onDemand(panel, { name: 'account', title: 'Account' }, () => import('./home.js').then((m) => m.signedInView(ctx)))
        : ctx.views.signedOut()),
      signedOut: (opts) => onDemand(panel, { name: 'signed-out', title: 'Account' }, () => import('./home.js').then((m) => m.signedOutView(ctx, opts))),
      register: () => onDemand(panel, { name: 'register', title: 'Create an account' }, () => import('./register.js').then((m) => m.registerView(ctx))),
      forgot: () => onDemand(panel, { name: 'forgot', title: 'Forgot Password' }, () => import('./forgot-password.js').then((m) => m.forgotPasswordView(ctx))),
      update: () => onDemand(panel, { name: 'update', title: 'Update Account' }, () => import('./update-account.js').then((m) => m.updateAccountView(ctx))),
      permits: () => onDemand(panel, { name: 'permits', title: 'Your Permits' }, () => import('./permits.js').then((m) => m.permitsView(ctx))),
      schedule: () => onDemand(panel, { name: 'schedule', title: 'Weekly Schedule' }, () => import('../parking/schedule.js').then((m) => m.scheduleView(ctx))),
      deleteAccount: () => onDemand(panel, { name: 'delete-account', title: 'Delete Account' }, () => import('./delete-account.js').then((m) => m.deleteAccountView(ctx))),
      // The path bookingsView gives a focused booking, needed before its module has come.
      bookings: (focus) => onDemand(panel, { name: 'bookings', title: 'Your Bookings', path: focus ? `/me/bookings/${encodeURIComponent(focus)}` : undefined },
        () => import('../parking/bookings-view.js').then((m) => m.bookingsView(ctx, focus ? { focus } : undefined))),
      weekly: (seriesId) => onDemand(panel, { name: 'weekly', title: 'Weekly Booking', path: `/me/weekly/${encodeURIComponent(seriesId)}` },
        () => import('../parking/series-view.js').then((m) => m.seriesView(ctx, seriesId))),
      wallet: () => onDemand(panel, { name: 'wallet', title: 'Wallet' }, () => import('./wallet.js').then((m) => m.walletView(ctx))),
      analytics: () => onDemand(panel, { name: 'analytics', title: 'Analytics' }, () => import('./analytics.js').then((m) => m.analyticsView(ctx))),
      operate: (tab) => onDemand(panel, { name: 'operate', title: 'Operate' }, () => import('./operate.js').then((m) => m.operateView(ctx, { tab }))),
      moderation: () => onDemand(panel, { name: 'moderation', title: 'Trail moderation' }, () => import('../trails/moderation.js').then((m) => m.moderationView())),
      outbox: () => onDemand(panel, { name: 'outbox', title: 'Waiting to Send' }, () => import('./outbox-view.js').then((m) => m.outboxView())),
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
      panel.push(name === 'bookings' ? ctx.views.bookings(focus) : ctx.views[name]());
    },
    /** What this browser is to the server (tests). */
    get state() {
      return { signedIn: signedIn(), hasDevice: hasDevice(), username: cachedMe()?.username ?? null, view: panel.view };
    },
    refreshMe: () => (signedIn() ? fetchMe() : Promise.resolve(null)),
  };
}
