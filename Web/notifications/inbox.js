// Notifications (PRK-15): the bell in the toolbar with the number unread, the inbox in the
// side panel (opening a notification marks it read; mark all read; delete), and new ones
// arriving live with a short message. Under the inbox, alerts on this device (PRK-22).

import { el, button } from '../accounts/forms.js';
import { signedIn, hasDevice, currentToken, onSessionChange } from '../accounts/session.js';
import { problemText } from '../shell/api.js';
import { toast } from '../shell/toast.js';
import { listNotifications, markRead, markAllRead, removeNotification } from './api.js';
import { connectNotifications } from './live.js';
import { loadWatches } from './watches.js';
import { pushSection, stopPushOnSignOut } from './push.js';
import { savedNote } from '../accounts/saved-reads.js';

/** @param {string} iso */
function when(iso) {
  const d = new Date(iso);
  const minutes = Math.round((Date.now() - d.getTime()) / 60_000);
  if (minutes < 1) return 'Just now';
  if (minutes < 60) return `${minutes} min ago`;
  return d.toLocaleString([], { weekday: 'short', hour: 'numeric', minute: '2-digit' });
}

/** @param {{panel: ReturnType<typeof import('../accounts/panel.js').createPanel>, onSignIn: () => void}} o */
export function startNotifications(o) {
  const bell = /** @type {HTMLButtonElement} */ (document.getElementById('btn-notifications'));
  const badge = /** @type {HTMLElement} */ (bell.querySelector('.badge'));
  let unread = 0;
  /** @type {{stop: () => void}|null} */
  let live = null;
  /** @type {(() => void)|null} */
  let redraw = null;

  function showUnread(n) {
    unread = Math.max(0, n);
    badge.textContent = unread > 99 ? '99+' : String(unread);
    badge.hidden = unread === 0;
    bell.dataset.unread = String(unread);
    bell.setAttribute('aria-label', unread ? `Notifications, ${unread} unread` : 'Notifications');
  }

  async function refreshCount() {
    if (!signedIn() && !hasDevice()) { showUnread(0); return; }
    try { showUnread((await listNotifications()).unreadCount); } catch { /* offline: keep what is shown */ }
  }

  function connect() {
    live?.stop();
    live = null;
    if (!signedIn() && !hasDevice()) { showUnread(0); return; }
    live = connectNotifications({
      token: currentToken,
      onOpen: refreshCount,
      onNotification(n) {
        if (!n.read) showUnread(unread + 1);
        // Other areas hear of it too; the conversation being read says it needs no message.
        const announce = dispatchEvent(new CustomEvent('waymark:notification', { detail: n, cancelable: true }));
        if (announce) toast(n.title, 4000);
        redraw?.();
      },
    });
    refreshCount();
  }

  /** @returns {import('../accounts/panel.js').View} */
  function inboxView() {
    const list = el('ul', 'inbox');
    list.dataset.testid = 'inbox';
    list.setAttribute('aria-label', 'Notifications');
    const status = el('p', 'muted', 'Loading…');
    status.setAttribute('role', 'status');
    const allRead = button('Mark all read', async () => {
      try { await markAllRead(); await load(); } catch (err) { status.textContent = problemText(err); }
    }, 'link-button');
    allRead.dataset.testid = 'mark-all-read';

    /** @param {any} n */
    function item(n) {
      const li = el('li', `inbox-item ${n.read ? 'read' : 'unread'}`);
      li.dataset.id = n.id;
      li.dataset.kind = n.kind;
      const open = /** @type {HTMLButtonElement} */ (el('button', 'inbox-open'));
      open.type = 'button';
      open.setAttribute('aria-expanded', 'false');
      const title = el('span', 'inbox-title', n.title);
      const meta = el('span', 'inbox-when', `${n.read ? '' : 'New · '}${when(n.createdAt)}`);
      open.append(title, meta);
      const body = el('p', 'inbox-body', n.body);
      if (n.planDay) {
        // A notice about the plan leads to the event it is about, else to its day.
        const day = document.createElement('a');
        day.href = n.eventId ? `/plan/event/${encodeURIComponent(n.eventId)}/${encodeURIComponent(n.planDay)}` : `/plan/day/${encodeURIComponent(n.planDay)}`;
        day.className = 'inbox-link';
        day.textContent = n.eventId ? 'Open the event' : 'Open that day';
        body.append(' ', day);
      }
      // Where each kind leads: the trails suggested, the conversation, the friend requests.
      const target = n.kind === 'trail-suggestions' ? ['/trails', 'See the suggested trails']
        : n.threadId ? [`/trails/messages/${encodeURIComponent(n.threadId)}`, 'Open the conversation']
          : n.kind === 'friend-request' || n.kind === 'friend-accepted' ? ['/trails/friends', 'Open Friends'] : null;
      if (target) {
        const link = document.createElement('a');
        link.href = target[0];
        link.className = 'inbox-link';
        link.textContent = target[1];
        body.append(' ', link);
      }
      body.hidden = true;
      const remove = button('Delete', async () => {
        try { await removeNotification(n.id); li.remove(); if (!n.read) showUnread(unread - 1); } catch (err) { status.textContent = problemText(err); }
      }, 'link-button inbox-delete');
      remove.setAttribute('aria-label', `Delete “${n.title}”`);
      open.addEventListener('click', async () => {
        const expanded = body.hidden;
        body.hidden = !expanded;
        open.setAttribute('aria-expanded', String(expanded));
        if (expanded && !n.read) {
          try {
            await markRead(n.id);
            n.read = true;
            li.classList.replace('unread', 'read');
            meta.textContent = when(n.createdAt);
            showUnread(unread - 1);
          } catch (err) { status.textContent = problemText(err); }
        }
      });
      li.append(open, body, remove);
      return li;
    }

    async function load() {
      if (!signedIn() && !hasDevice()) {
        status.textContent = 'Nothing yet. Sign in and watch a lot to be told when it fills up.';
        list.replaceChildren();
        return;
      }
      try {
        const page = await listNotifications();
        showUnread(page.unreadCount);
        list.replaceChildren(...page.notifications.map(item));
        status.textContent = savedNote(page) || (page.notifications.length ? '' : 'Nothing yet. Open a lot on the map and choose “Watch this lot”.');
        allRead.hidden = page.unreadCount === 0;
      } catch (err) {
        status.textContent = problemText(err);
      }
    }

    return {
      name: 'notifications',
      title: 'Notifications',
      render() {
        redraw = () => { load(); };
        load();
        const parts = [allRead, status, list];
        if (!signedIn()) parts.push(button('Sign in to watch lots', o.onSignIn, 'acc-button'));
        if (signedIn() || hasDevice()) parts.push(pushSection());
        return parts;
      },
      leave() { redraw = null; },
    };
  }

  bell.addEventListener('click', () => {
    if (o.panel.isOpen && o.panel.view === 'notifications') o.panel.close();
    else o.panel.open(inboxView());
  });
  onSessionChange(() => { connect(); loadWatches(); });
  // Another area read what some notifications were about (a conversation): count again.
  addEventListener('waymark:notifications-changed', () => { refreshCount(); redraw?.(); });
  stopPushOnSignOut();
  // A page the browser keeps for Back and Forward must not hold its stream (and a connection)
  // open meanwhile; it listens again when shown.
  addEventListener('pagehide', () => { live?.stop(); live = null; });
  addEventListener('pageshow', (e) => { if (e.persisted) connect(); });
  connect();
  loadWatches();
  return {
    get unread() { return unread; },
    open: () => o.panel.open(inboxView()),
    view: () => inboxView(),
  };
}
