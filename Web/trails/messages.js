// Messages (TRL-8, Trailz 3.2.6.1–3.2.6.4): the conversations with unread counts (also on the
// Trails tab), + to start one in the People Picker, and a conversation: your messages on the
// right, others' on the left, each of yours with ⋮ → Edit or Delete; ⋮ on the conversation to
// invite or remove friends (removing needs two others in it) or leave; older messages a page
// at a time. New messages arrive live; one written offline waits in the outbox and is sent
// once; what was read last reads offline.

import { el } from '../shell/dom.js';
import { toast } from '../shell/toast.js';
import { confirm } from '../shell/dialog.js';
import { OfflineError, ProblemError, problemText, newKey } from '../shell/api.js';
import { connectStream } from '../shell/event-stream.js';
import { signedIn, cachedMe, currentToken, onSessionChange } from '../accounts/session.js';
import { writes, onSent, onChange as onOutboxChange } from '../accounts/outbox.js';
import {
  listThreads, createThread, getThread, addMember, removeMember, listMessages, putMessage, deleteMessage, markThreadRead,
  threadLiveURL, getFriends,
} from './api.js';
import { keepCopy, savedCopy } from '../shell/saved-copies.js';
import { personLine } from './friends.js';
import { seenAt } from './friend-map.js';

const MAX_TEXT = 2000;
const clock = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const dayClock = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });
const when = (/** @type {string} */ iso) => {
  const d = new Date(iso);
  return d.toDateString() === new Date().toDateString() ? clock.format(d) : dayClock.format(d);
};

/** What a conversation is called: its name, or the others' names. @param {any} t */
export function threadName(t) {
  if (t.title) return t.title;
  const me = cachedMe()?.id;
  const others = t.members.filter((m) => m.id !== me).map((m) => m.name);
  return others.length ? others.join(', ') : 'Just you';
}

/** @param {{go: (path: string) => void}} o */
export function startMessages(o) {
  let unread = savedCopy('threads')?.value?.unreadCount ?? 0;
  /** The conversation on screen, whose new messages need no notice. */
  let shownThread = /** @type {string|null} */ (null);
  /** @type {{stop: () => void}|null} */
  let live = null;
  /** @type {(() => void)[]} */
  let cleanups = [];

  function showUnread(/** @type {number} */ n) {
    unread = Math.max(0, n);
    const link = document.getElementById('nav-trails');
    if (link) {
      let badge = /** @type {HTMLElement|null} */ (link.querySelector('.badge'));
      if (!badge) { badge = el('span', { class: 'badge nav-badge', 'aria-hidden': 'true' }); link.append(badge); }
      badge.textContent = unread > 99 ? '99+' : String(unread);
      badge.hidden = unread === 0;
      link.setAttribute('aria-label', unread ? `Trails, ${unread} unread ${unread === 1 ? 'message' : 'messages'}` : 'Trails');
    }
    for (const b of document.querySelectorAll('[data-unread-messages]')) {
      b.textContent = unread ? String(unread) : '';
      /** @type {HTMLElement} */ (b).hidden = unread === 0;
    }
  }

  async function refreshUnread() {
    if (!signedIn()) { showUnread(0); return null; }
    try {
      const r = await listThreads();
      keepCopy('threads', r);
      showUnread(r.unreadCount);
      return r;
    } catch { return null; }
  }

  addEventListener('waymark:notification', (e) => {
    const n = /** @type {CustomEvent} */ (e).detail;
    if (n.kind !== 'thread-message') return;
    // The conversation is open: its messages show there, no need to announce them.
    if (n.threadId && n.threadId === shownThread && document.visibilityState === 'visible') e.preventDefault();
    refreshUnread();
  });
  onSessionChange(() => { refreshUnread(); });
  showUnread(signedIn() ? unread : 0);
  refreshUnread();

  /** Opens (making it the first time) the direct conversation with a friend. @param {string} personId */
  async function openDirect(personId) {
    try {
      const t = await createThread([personId]);
      o.go(`/trails/messages/${encodeURIComponent(t.id)}`);
    } catch (err) { toast(err instanceof OfflineError ? 'You are offline: a new conversation can be started when Waymark can be reached.' : problemText(err)); }
  }

  function leave() {
    live?.stop();
    live = null;
    shownThread = null;
    for (const fn of cleanups) fn();
    cleanups = [];
  }

  const signInNote = () => el('p', 'trails-note', 'Messages are between friends. ', el('a', { href: '/me' }, 'Sign in or create an account'), ' to write to yours.');

  // ---- The conversations ----

  function listScreen() {
    leave();
    const list = el('ul', { class: 'thread-list', id: 'thread-list' });
    const status = el('p', { class: 'trails-note', role: 'status' });
    const page = el('article', { class: 'trail-page', dataset: { screen: 'messages' } },
      el('div', 'trail-head', el('a', { class: 'trails-back', href: '/trails' }, '‹ Trails'), el('a', { class: 'acc-button', href: '/trails/friends', id: 'messages-friends' }, 'Friends')),
      el('h2', 'trails-title', 'Messages'));
    if (!signedIn()) { page.append(signInNote()); return page; }
    const fab = el('a', { class: 'trail-fab', href: '/trails/messages/new', id: 'messages-new', 'aria-label': 'New conversation', title: 'New conversation' }, '+');
    page.append(status, list, fab);

    const render = (/** @type {any} */ r, /** @type {number|null} */ savedAt) => {
      status.textContent = savedAt ? `You are offline: these are your conversations as of ${seenAt(new Date(savedAt).toISOString())}.` : '';
      const me = cachedMe()?.id;
      list.replaceChildren(...(r.threads.length ? r.threads.map((t) => {
        const other = t.members.find((m) => m.id !== me) ?? t.members[0];
        const last = t.lastMessage;
        const preview = last ? `${last.author.id === me ? 'You' : last.author.name.split(' ')[0]}: ${last.text.split('\n')[0]}` : 'No messages yet';
        return el('li', { class: `thread-item${t.unreadCount ? ' unread' : ''}`, dataset: { thread: t.id } },
          el('a', { class: 'thread-link', href: `/trails/messages/${encodeURIComponent(t.id)}` },
            el('img', { class: 'person-picture', src: other?.pictureUrl ?? '', alt: '', width: 44, height: 44, loading: 'lazy' }),
            el('div', 'thread-text', el('strong', 'thread-name', threadName(t)), el('span', 'thread-preview', preview)),
            el('div', 'thread-meta', el('span', 'muted', last ? when(last.sentAt) : ''),
              t.unreadCount ? el('span', { class: 'badge', 'aria-label': `${t.unreadCount} unread` }, String(t.unreadCount)) : null)));
      }) : [el('li', 'trails-note', 'No conversations yet. Tap + to write to a friend; people become friends in ', el('a', { href: '/trails/friends' }, 'Friends'), '.')]));
    };
    const copy = savedCopy('threads');
    if (copy) render(copy.value, null);
    refreshUnread().then((r) => {
      if (r) render(r, null);
      else if (copy) render(copy.value, copy.savedAt);
      else status.textContent = 'You are offline and this browser has no copy of your conversations yet.';
    });
    return page;
  }

  // ---- The People Picker: a new conversation, inviting, removing ----

  /** @param {'new'|'invite'|'remove'} mode @param {string} [threadId] */
  function pickerScreen(mode, threadId) {
    leave();
    const back = threadId ? `/trails/messages/${encodeURIComponent(threadId)}` : '/trails/messages';
    const list = el('ul', { class: 'person-list picker', id: 'people-picker' });
    const status = el('p', { class: 'trails-note', role: 'status' });
    const title = el('input', { type: 'text', id: 'picker-title', maxlength: 80, placeholder: 'Group name (optional)', 'aria-label': 'Group name (optional)', hidden: true });
    const done = el('button', { type: 'button', class: 'acc-button primary', id: 'picker-done', disabled: true, 'aria-label': 'Done' }, '✓ Done');
    const heading = { new: 'New conversation', invite: 'Invite friends', remove: 'Remove friends' }[mode];
    const hint = { new: 'Choose one friend for a conversation of two, or several for a group.', invite: 'Choose the friends to add to this conversation.',
      remove: 'Choose the people to remove from this conversation.' }[mode];
    const page = el('article', { class: 'trail-page', dataset: { screen: `picker-${mode}` } },
      el('div', 'trail-head', el('a', { class: 'trails-back', href: back }, '‹ Back'), done),
      el('h2', 'trails-title', heading), el('p', { class: 'trails-note', id: 'picker-hint' }, hint), title, status, list);
    if (!signedIn()) { page.replaceChildren(signInNote()); return page; }
    const chosen = new Set();
    const update = () => {
      done.disabled = chosen.size === 0;
      title.hidden = mode !== 'new' || chosen.size < 2;
    };
    const row = (/** @type {any} */ p) => {
      const box = el('input', { type: 'checkbox', id: `pick-${p.id}`, dataset: { person: p.id },
        on: { change: () => { if (box.checked) chosen.add(p.id); else chosen.delete(p.id); update(); } } });
      return el('li', 'person-item', el('label', { class: 'picker-row', for: `pick-${p.id}` }, box, personLine(p)));
    };
    (async () => {
      try {
        const me = cachedMe()?.id;
        let people;
        if (mode === 'remove') {
          people = (await getThread(/** @type {string} */ (threadId))).members.filter((m) => m.id !== me);
        } else {
          const friends = (await getFriends()).friends.map((d) => d.person);
          const inThread = mode === 'invite' ? new Set((await getThread(/** @type {string} */ (threadId))).members.map((m) => m.id)) : new Set();
          people = friends.filter((p) => !inThread.has(p.id));
        }
        list.replaceChildren(...people.map(row));
        if (!people.length) {
          status.replaceChildren(mode === 'remove' ? 'Nobody else is in this conversation.'
            : el('span', null, mode === 'invite' ? 'Every friend of yours is in this conversation already. ' : 'You have no friends on Waymark yet. ',
              el('a', { href: '/trails/friends' }, 'Find people in Friends'), '.'));
        }
      } catch (err) { status.textContent = err instanceof OfflineError ? 'You are offline: people can be chosen when Waymark can be reached.' : problemText(err); }
    })();
    done.addEventListener('click', async () => {
      done.disabled = true;
      try {
        if (mode === 'new') {
          const t = await createThread([...chosen], title.hidden ? undefined : title.value.trim() || undefined);
          o.go(`/trails/messages/${encodeURIComponent(t.id)}`);
          return;
        }
        const names = [...list.querySelectorAll('input:checked')].map((b) => b.closest('li')?.querySelector('strong')?.textContent ?? '');
        for (const id of chosen) {
          if (mode === 'invite') await addMember(/** @type {string} */ (threadId), id);
          else await removeMember(/** @type {string} */ (threadId), id);
        }
        const who = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
        toast(mode === 'invite' ? `${who} ${names.length === 1 ? 'was' : 'were'} added to the conversation.` : `${who} ${names.length === 1 ? 'was' : 'were'} removed from the conversation.`);
        o.go(back);
      } catch (err) {
        done.disabled = false;
        status.textContent = err instanceof OfflineError ? 'You are offline: try again when Waymark can be reached.' : problemText(err);
      }
    });
    return page;
  }

  // ---- A conversation ----

  /** @param {string} threadId */
  function threadScreen(threadId) {
    leave();
    if (!signedIn()) return el('article', 'trail-page', el('a', { class: 'trails-back', href: '/trails/messages' }, '‹ Messages'), signInNote());
    shownThread = threadId;
    const me = cachedMe()?.id;
    const blocked = new Set((savedCopy('friends')?.value?.blocked ?? []).map((p) => p.id));
    /** @type {Map<string, any>} messages by id */
    const messages = new Map();
    let thread = /** @type {any} */ (savedCopy(`thread.${threadId}`)?.value?.thread ?? null);
    let nextBefore = /** @type {number|null} */ (null);

    const name = el('h2', { class: 'trails-title thread-title', id: 'thread-title' }, thread ? threadName(thread) : 'Conversation');
    const menu = el('div', { class: 'thread-menu', id: 'thread-menu', hidden: true, role: 'menu' });
    const menuButton = el('button', { type: 'button', class: 'acc-button icon-button', id: 'thread-options', 'aria-label': 'Conversation options',
      'aria-haspopup': 'menu', 'aria-expanded': 'false', on: { click: () => toggleMenu() } }, '⋮');
    const status = el('p', { class: 'trails-note', role: 'status', id: 'thread-status' });
    const older = el('button', { type: 'button', class: 'link-button', id: 'thread-older', hidden: true, on: { click: loadOlder } }, 'Show older messages');
    const list = el('ol', { class: 'messages', id: 'thread-messages', 'aria-live': 'polite' });
    const text = /** @type {HTMLTextAreaElement} */ (el('textarea', { id: 'message-text', rows: 1, maxlength: MAX_TEXT * 2, placeholder: 'Write a message',
      'aria-label': 'Message', enterkeyhint: 'send' }));
    const count = el('span', { class: 'muted message-count', hidden: true });
    const sendButton = el('button', { type: 'submit', class: 'acc-button primary', id: 'message-send', 'aria-label': 'Send' }, 'Send');
    const composer = el('form', { class: 'composer', id: 'message-form', on: { submit: (e) => { e.preventDefault(); send(); } } }, text, count, sendButton);
    text.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); send(); }
    });
    text.addEventListener('input', () => {
      text.style.height = 'auto';
      text.style.height = `${Math.min(text.scrollHeight, 160)}px`;
      const n = [...text.value.trim()].length;
      count.hidden = n < MAX_TEXT - 200;
      count.textContent = `${MAX_TEXT - n}`;
    });

    function toggleMenu(/** @type {boolean} */ open = menu.hidden) {
      menu.hidden = !open;
      menuButton.setAttribute('aria-expanded', String(open));
      if (!open) return;
      const others = (thread?.members ?? []).filter((m) => m.id !== me);
      menu.replaceChildren(
        el('button', { type: 'button', role: 'menuitem', id: 'thread-invite', on: { click: () => o.go(`/trails/messages/${encodeURIComponent(threadId)}/invite`) } }, 'Invite friends'),
        el('button', { type: 'button', role: 'menuitem', id: 'thread-remove', disabled: others.length < 2,
          title: others.length < 2 ? 'Only one other person is in this conversation' : '',
          on: { click: () => o.go(`/trails/messages/${encodeURIComponent(threadId)}/remove`) } }, 'Remove friends'),
        el('button', { type: 'button', role: 'menuitem', id: 'thread-leave', on: { click: leaveThread } }, 'Leave conversation'));
      /** @type {HTMLElement|null} */ (menu.querySelector('button:not([disabled])'))?.focus();
    }

    async function leaveThread() {
      toggleMenu(false);
      if (!await confirm({ title: 'Leave this conversation?', message: 'You will no longer see its messages or be told of new ones. Someone in it can invite you again.',
        confirm: 'Leave', danger: true, name: 'leave-thread' })) return;
      try {
        await removeMember(threadId, /** @type {string} */ (me));
        toast('You left the conversation.');
        o.go('/trails/messages');
      } catch (err) { toast(problemText(err)); }
    }

    function showThread(/** @type {any} */ t) {
      thread = t;
      name.textContent = threadName(t);
      const others = t.members.filter((m) => m.id !== me);
      subtitle.textContent = t.title || others.length > 1 ? t.members.map((m) => (m.id === me ? 'you' : m.name)).join(', ') : '';
    }
    const subtitle = el('p', { class: 'muted thread-members', id: 'thread-members' });
    if (thread) showThread(thread);

    /** @param {any} m a message, or one waiting in the outbox ({pending: true}) */
    function item(m) {
      const mine = m.author.id === me;
      const li = el('li', { class: `message ${mine ? 'mine' : 'theirs'}${m.pending ? ' pending' : ''}`, dataset: { message: m.id } });
      const group = (thread?.members?.length ?? 2) > 2;
      const bubble = el('div', 'bubble',
        !mine && group ? el('strong', 'message-author', m.author.name) : null,
        el('p', 'message-text', m.text),
        el('span', 'message-meta', m.pending ? 'Waiting to send — it goes when Waymark can be reached' : `${when(m.sentAt)}${m.editedAt ? ' · edited' : ''}`));
      if (!mine) li.append(el('img', { class: 'person-picture small', src: m.author.pictureUrl, alt: '', width: 28, height: 28, loading: 'lazy' }));
      li.append(bubble);
      if (mine) {
        const actions = el('div', { class: 'message-actions', hidden: true },
          el('button', { type: 'button', class: 'link-button', dataset: { action: 'edit' }, on: { click: () => edit(m, li) } }, 'Edit'),
          el('button', { type: 'button', class: 'link-button danger', dataset: { action: 'delete' }, on: { click: () => remove(m) } }, 'Delete'));
        const more = el('button', { type: 'button', class: 'icon-button message-more', 'aria-label': 'Message options', 'aria-expanded': 'false',
          on: { click: () => { actions.hidden = !actions.hidden; more.setAttribute('aria-expanded', String(!actions.hidden)); } } }, '⋮');
        li.append(more, actions);
      }
      return li;
    }

    function draw() {
      const sorted = [...messages.values()].filter((m) => !blocked.has(m.author.id))
        .sort((a, b) => (a.pending ? Infinity : a.sequence) - (b.pending ? Infinity : b.sequence) || a.localOrder - b.localOrder);
      const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
      list.replaceChildren(...(sorted.length ? sorted.map(item) : [el('li', 'trails-note', 'No messages yet. Say hello!')]));
      if (atBottom || sorted.length <= 30) list.scrollTop = list.scrollHeight;
    }

    function edit(/** @type {any} */ m, /** @type {HTMLElement} */ li) {
      const box = /** @type {HTMLTextAreaElement} */ (el('textarea', { class: 'message-edit', 'aria-label': 'Edit message', maxlength: MAX_TEXT * 2 }));
      box.value = m.text;
      const save = el('button', { type: 'button', class: 'acc-button primary', dataset: { action: 'save' } }, 'Save');
      const cancel = el('button', { type: 'button', class: 'acc-button', on: { click: draw } }, 'Cancel');
      save.addEventListener('click', async () => {
        const value = box.value.trim();
        if (!value || value === m.text) { draw(); return; }
        try {
          const r = await putMessage(threadId, m.id, value);
          messages.set(m.id, r.sent ? r.answer : { ...m, text: value, pending: true });
          draw();
        } catch (err) { toast(problemText(err)); }
      });
      li.querySelector('.bubble')?.replaceChildren(box, el('div', 'person-actions', cancel, save));
      box.focus();
    }

    async function remove(/** @type {any} */ m) {
      if (!await confirm({ title: 'Delete this message?', message: 'It goes from the conversation for everyone in it.', confirm: 'Delete', danger: true, name: 'delete-message' })) return;
      messages.delete(m.id);
      draw();
      try { await deleteMessage(threadId, m.id); } catch (err) { toast(problemText(err)); load(); }
    }

    let localOrder = 0;
    async function send() {
      const value = text.value.trim();
      if (!value) return;
      if ([...value].length > MAX_TEXT) { toast(`A message has at most ${MAX_TEXT} characters; send it in parts.`); return; }
      const id = newKey();
      const mine = cachedMe();
      messages.set(id, { id, threadId, text: value, pending: true, localOrder: localOrder++,
        author: { id: mine?.id, name: mine?.firstName ?? mine?.username, username: mine?.username, pictureUrl: mine?.pictureURL } });
      text.value = '';
      text.style.height = 'auto';
      draw();
      try {
        const r = await putMessage(threadId, id, value);
        if (r.sent) messages.set(id, r.answer);
        draw();
      } catch (err) {
        messages.delete(id);
        text.value = value;
        draw();
        toast(problemText(err));
      }
    }

    function remember() {
      keepCopy(`thread.${threadId}`, { thread, messages: [...messages.values()].filter((m) => !m.pending).sort((a, b) => b.sequence - a.sequence).slice(0, 30) });
    }

    async function read() {
      if (document.visibilityState !== 'visible' || shownThread !== threadId) return;
      try {
        await markThreadRead(threadId);
        dispatchEvent(new CustomEvent('waymark:notifications-changed'));
        refreshUnread();
      } catch { /* offline: read again next time */ }
    }

    function gone() {
      if (shownThread !== threadId) return;
      toast('You are no longer in this conversation.');
      o.go('/trails/messages');
    }

    async function load() {
      try {
        const [t, page] = await Promise.all([getThread(threadId), listMessages(threadId)]);
        showThread(t);
        for (const m of page.messages) messages.set(m.id, m);
        nextBefore = page.nextBefore ?? null;
        older.hidden = nextBefore == null;
        status.textContent = '';
        remember();
        draw();
        read();
      } catch (err) {
        if (err instanceof ProblemError && err.status === 404) { status.textContent = 'This conversation does not exist, or you are not in it.'; composer.hidden = true; return; }
        const copy = savedCopy(`thread.${threadId}`);
        if (copy) {
          showThread(copy.value.thread);
          for (const m of copy.value.messages) messages.set(m.id, m);
          draw();
        }
        status.textContent = err instanceof OfflineError
          ? (copy ? `You are offline: messages as of ${seenAt(new Date(copy.savedAt).toISOString())}. What you write is sent when Waymark can be reached.` : 'You are offline and this browser has no copy of this conversation yet.')
          : problemText(err);
      }
      // Messages written here offline, still waiting.
      for (const w of writes()) {
        if (w.kind === 'message' && w.ref?.threadId === threadId && !messages.has(w.ref.messageId)) {
          const mine = cachedMe();
          messages.set(w.ref.messageId, { id: w.ref.messageId, threadId, text: w.ref.text, pending: true, localOrder: localOrder++,
            author: { id: mine?.id, name: mine?.username, username: mine?.username, pictureUrl: mine?.pictureURL } });
        }
      }
      draw();
    }

    async function loadOlder() {
      if (nextBefore == null) return;
      older.disabled = true;
      try {
        const height = list.scrollHeight;
        const page = await listMessages(threadId, nextBefore);
        for (const m of page.messages) messages.set(m.id, m);
        nextBefore = page.nextBefore ?? null;
        older.hidden = nextBefore == null;
        draw();
        list.scrollTop = list.scrollHeight - height;
      } catch (err) { toast(err instanceof OfflineError ? 'You are offline: older messages can be read when Waymark can be reached.' : problemText(err)); }
      older.disabled = false;
    }

    live = connectStream({
      url: threadLiveURL(threadId), token: currentToken, onGone: gone,
      onEvent(event, data) {
        if (event === 'message') {
          messages.set(data.id, data);
          remember();
          draw();
          if (data.author.id !== me) read();
        } else if (event === 'message-deleted') {
          messages.delete(data.id);
          remember();
          draw();
        } else if (event === 'members') {
          getThread(threadId).then(showThread).catch((err) => { if (err instanceof ProblemError && err.status === 404) gone(); });
        }
      },
    });
    const stopSent = onSent((w, answer) => {
      if (w.kind === 'message' && w.ref?.threadId === threadId && answer?.id) { messages.set(answer.id, answer); remember(); draw(); }
    });
    const stopOutbox = onOutboxChange(() => {
      // A queued message the person discarded from the outbox is not waiting any more.
      const waiting = new Set(writes().filter((w) => w.kind === 'message').map((w) => w.ref?.messageId));
      let changed = false;
      for (const [id, m] of messages) if (m.pending && !waiting.has(id)) { messages.delete(id); changed = true; }
      if (changed) draw();
    });
    const onVisible = () => { if (document.visibilityState === 'visible') read(); };
    document.addEventListener('visibilitychange', onVisible);
    const closeMenu = (/** @type {MouseEvent} */ e) => { if (!menu.hidden && !menu.contains(/** @type {Node} */ (e.target)) && e.target !== menuButton) toggleMenu(false); };
    document.addEventListener('click', closeMenu);
    cleanups.push(stopSent, stopOutbox, () => document.removeEventListener('visibilitychange', onVisible), () => document.removeEventListener('click', closeMenu));

    const copy = savedCopy(`thread.${threadId}`);
    if (copy) for (const m of copy.value.messages) messages.set(m.id, m);
    draw();
    load();
    return el('article', { class: 'trail-page thread-page', dataset: { screen: 'thread', thread: threadId } },
      el('div', 'trail-head', el('a', { class: 'trails-back', href: '/trails/messages' }, '‹ Messages'), menuButton),
      menu, name, subtitle, status, older, list, composer);
  }

  return {
    listScreen, pickerScreen, threadScreen, openDirect, leave,
    get unread() { return unread; },
  };
}
