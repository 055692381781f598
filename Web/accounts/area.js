// "You": the person's own space as an area of the shell. Its screens are the Accounts panel's,
// each at a path of its own (/me, /me/inbox, /me/bookings, /me/bookings/<id>, /me/weekly/<id>, /me/wallet,
// /me/account, /me/operate/<section>, …), so they survive a reload, open cold from a shared
// link and follow Back and Forward. The panel opens over the map area the person came from.

import { startAccounts } from './index.js';
import { signedIn } from './session.js';
import { record, leave, stepBack } from '../shell/router.js';

const HOME = '/me';
/** View name → the section of its path, where they differ. */
const SECTION_OF = { account: '', 'signed-out': '', update: 'account', notifications: 'inbox', forgot: 'forgot-password', 'delete-account': 'delete' };
/** Sections that belong to an account: signed out, their path asks to sign in first. */
const NEEDS_ACCOUNT = { account: 'your account', bookings: 'your bookings', weekly: 'your weekly bookings', wallet: 'your wallet', analytics: 'analytics', operate: 'the sites you run', delete: 'your account' };

/** @param {import('./panel.js').View|null} view */
function pathOf(view) {
  if (!view) return HOME;
  if (view.path) return view.path;
  const section = SECTION_OF[view.name] ?? view.name;
  return section ? `${HOME}/${section}` : HOME;
}

/**
 * @param {{services: Record<string, any>, basePath: () => string}} shell
 *   basePath: the path of the map area under the panel (where closing it leads)
 */
export function start(shell) {
  const accounts = startAccounts({
    site: () => shell.services.currentSite(),
    lotCode: (id) => shell.services.parking?.store.state.lotById.get(id)?.code ?? null,
    lots: () => shell.services.parking?.store.state.lots ?? [],
  });
  const { panel, ctx, notifications } = accounts;
  shell.services.accounts = accounts;
  let applying = false;

  // Screens the person opens, closes or steps through become history entries.
  panel.onChange((cause, view) => {
    if (applying) return;
    if (cause === 'push') record(pathOf(view), { layer: 'me' });
    else if (cause === 'open') record(pathOf(view), { layer: 'me', replace: location.pathname.startsWith(`${HOME}/`) || location.pathname === HOME });
    else if (cause === 'reset') record(pathOf(view), { layer: 'me', replace: true });
    else if (cause === 'back') stepBack('me', pathOf(view));
    else if (cause === 'close') leave('me', shell.basePath());
  });

  /** The screen a section names, or null for home. */
  function sectionView(section, rest) {
    switch (section) {
      case 'inbox': return notifications.view();
      case 'bookings': return ctx.views.bookings(rest || undefined);
      case 'weekly': return rest ? ctx.views.weekly(rest) : ctx.views.bookings();
      case 'wallet': return ctx.views.wallet();
      case 'account': return ctx.views.update();
      case 'permits': return ctx.views.permits();
      case 'schedule': return ctx.views.schedule();
      case 'analytics': return ctx.views.analytics();
      case 'operate': return ctx.views.operate(rest);
      case 'outbox': return ctx.views.outbox();
      case 'register': return signedIn() ? null : ctx.views.register();
      case 'forgot-password': return signedIn() ? null : ctx.views.forgot();
      case 'delete': return ctx.views.deleteAccount();
      default: return null;
    }
  }

  return {
    /** @param {string} path */
    show(path) {
      const [section = '', rest = ''] = path.slice(HOME.length + 1).split('/').map(decodeURIComponent);
      if (panel.top && pathOf(panel.top) === path) return;
      applying = true;
      try {
        if (section && NEEDS_ACCOUNT[section] && !signedIn()) {
          panel.open(ctx.views.signedOut({ notice: `Sign in to see ${NEEDS_ACCOUNT[section]}.` }));
          return;
        }
        const view = section ? sectionView(section, rest) : null;
        panel.open(ctx.views.home());
        if (view) panel.push(view);
        // A section that does not exist (or not any more) shows home under its own path.
        if (section && !view) record(HOME, { layer: 'me', replace: true });
      } finally {
        applying = false;
      }
    },
    hide() {
      if (!panel.isOpen) return;
      applying = true;
      try { panel.close(); } finally { applying = false; }
    },
    get isOpen() { return panel.isOpen; },
  };
}
