// A trail's community forum (TRL-5, Trailz 3.2.6.6): posts pinned to a spot, newest first,
// visible to everyone and dated. The + button opens the drop-pin map, centred on the trailhead
// with a pin that stays in the middle; "Create post" comes back here with a picture of the spot
// above the text. Tapping a post's picture shows its pin on the map. A post written offline
// waits in the outbox and is sent once (TRL-11).

import { el } from '../shell/dom.js';
import { toast } from '../shell/toast.js';
import { choose, confirm } from '../shell/dialog.js';
import { OfflineError, problemText } from '../shell/api.js';
import { signedIn } from '../accounts/session.js';
import { writes, onChange, onSent } from '../accounts/outbox.js';
import { REPORT_REASONS, placeDates } from './format.js';
import { listForum, putForumPost, deleteForumPost, reportForumPost } from './api.js';
import { TIER_COLOURS } from './layers.js';
import { placePicture } from './picture.js';

const SEEN_KEY = 'waymark.trails.forum-intro';

let current = /** @type {{trailId: string, reload: () => void, redraw: () => void}|null} */ (null);
onChange(() => current?.redraw());
onSent((w) => { if (w.kind === 'trail-post' && w.ref?.trailId === current?.trailId) current.reload(); });

/** A picture of the spot: the trail's path and the pin. @param {number[][]} path @param {{latitude: number, longitude: number}} pin @param {string} colour */
export const pinPicture = (path, pin, colour) => placePicture({ lines: [{ points: path, colour }], pin });

/** "34.1234° N, 117.5678° W": where a pin is, as people write it. @param {{latitude: number, longitude: number}} c */
export function coordinateText(c) {
  const lat = `${Math.abs(c.latitude).toFixed(4)}° ${c.latitude >= 0 ? 'N' : 'S'}`;
  const lon = `${Math.abs(c.longitude).toFixed(4)}° ${c.longitude >= 0 ? 'E' : 'W'}`;
  return `${lat}, ${lon}`;
}

/**
 * The forum screen.
 * @param {any} page the trail's page
 * @param {{go: (path: string) => void, compose: () => ({latitude: number, longitude: number}|null),
 *   clearCompose: () => void, showPin: (pin: {latitude: number, longitude: number}) => void}} o
 */
export function forumScreen(page, o) {
  const t = page.summary;
  const trail = { id: t.id, name: t.name };
  const base = `/trails/${encodeURIComponent(t.id)}`;
  const colour = TIER_COLOURS[t.difficulty];
  const when = placeDates(page.timeZone, { dateStyle: 'medium', timeStyle: 'short' });
  const composeBox = el('div', { id: 'trail-forum-compose' });
  const waitingBox = el('div', { id: 'trail-forum-waiting' });
  const status = el('p', { class: 'trails-empty', id: 'trail-forum-status', role: 'status' }, 'Loading posts…');
  const list = el('ul', { class: 'trail-posts', id: 'trail-posts' });
  const more = el('button', { type: 'button', class: 'trails-more', id: 'trail-posts-more', hidden: true, on: { click: () => load(shown) } }, 'Older posts');
  const fab = el('button', { type: 'button', class: 'trail-fab', id: 'trail-forum-new', 'aria-label': 'New post pinned to a spot', on: { click: newPost } }, '+');
  let shown = 0;

  function newPost() {
    if (!signedIn()) { toast('Sign in to post on the forum: your account is your name on the post.'); return; }
    o.go(`${base}/forum/pin`);
  }

  async function load(offset = 0) {
    let r;
    try { r = await listForum(t.id, offset); } catch (err) {
      status.textContent = err instanceof OfflineError ? 'The forum needs a connection to be read. Posts you write now are sent when Waymark can be reached.'
        : 'The forum could not be loaded. Try again in a moment.';
      status.hidden = false;
      return;
    }
    if (offset === 0) { list.replaceChildren(); shown = 0; }
    list.append(...r.posts.map(post));
    shown += r.posts.length;
    more.hidden = shown >= r.total;
    status.hidden = r.total > 0;
    status.textContent = r.total ? '' : 'No posts yet. Tap + to pin a note to a spot on this trail: a spring, a washout, a view worth the climb.';
  }

  function post(p) {
    const picture = el('button', { type: 'button', class: 'trail-pin-button', 'aria-label': `Show the pin at ${coordinateText(p.pin)} on the map`,
      on: { click: () => o.showPin(p.pin) } }, pinPicture(page.path, p.pin, colour));
    const actions = p.mine
      ? el('button', { type: 'button', class: 'link-button', on: { click: () => remove(p) } }, 'Delete')
      : el('button', { type: 'button', class: 'link-button trail-report', on: { click: () => report(p) } }, 'Report');
    return el('li', { class: `trail-post${p.mine ? ' mine' : ''}`, dataset: { post: p.id } },
      el('p', 'trail-comment-head', el('strong', null, p.mine ? `${p.authorName} (you)` : p.authorName), ' ',
        el('time', { class: 'trails-note', datetime: p.createdAt }, when.format(new Date(p.createdAt)))),
      el('div', 'trail-post-body', picture, el('div', null,
        el('p', 'trail-comment-text', p.text),
        el('p', 'trails-note', coordinateText(p.pin)),
        el('p', 'trail-comment-actions', actions))));
  }

  async function remove(p) {
    if (!(await confirm({ title: 'Delete your post?', message: 'It is taken off the forum for everyone.', confirm: 'Delete', danger: true }))) return;
    try { await deleteForumPost(t.id, p.id); await load(0); toast('Your post is deleted.'); } catch (err) {
      toast(err instanceof OfflineError ? 'Deleting needs a connection. Try again when you are online.' : problemText(err));
    }
  }

  async function report(p) {
    if (!signedIn()) { toast('Sign in to report a post.'); return; }
    const reason = await choose({ title: 'Report this post', message: 'What is wrong with it? The trail’s operators will look at it.', name: 'report-post',
      actions: [...REPORT_REASONS.map(([id, label]) => ({ id, label })), { id: 'cancel', label: 'Cancel' }] });
    if (!reason || reason === 'cancel') return;
    try { await reportForumPost(p.id, reason); toast('Thank you: the operators will look at it.'); } catch (err) {
      toast(err instanceof OfflineError ? 'Reporting needs a connection. Try again when you are online.' : problemText(err));
    }
  }

  /** Posts waiting in the outbox for this trail, shown above the others. */
  function drawWaiting() {
    const mine = writes().filter((w) => w.kind === 'trail-post' && w.ref?.trailId === t.id);
    waitingBox.replaceChildren(...mine.map((w) => el('article', { class: `trail-post mine waiting ${w.state}`, dataset: { waiting: w.id } },
      el('p', 'trail-comment-head', el('strong', null, w.state === 'failed' ? `Not sent: ${w.error ?? 'the server refused it'}` : 'Waiting to send')),
      el('div', 'trail-post-body', pinPicture(page.path, w.ref.pin, colour), el('div', null, el('p', 'trail-comment-text', w.ref.text),
        el('p', 'trails-note', w.state === 'failed' ? 'See Waiting to Send in your account to try again or discard it.' : 'Sent when Waymark can be reached.'))))));
  }

  function drawCompose() {
    const pin = o.compose();
    if (!pin) { composeBox.replaceChildren(); return; }
    const text = el('textarea', { id: 'trail-post-text', rows: 3, maxLength: 1000, 'aria-label': 'Your post',
      placeholder: 'What should hikers know about this spot?' });
    const error = el('p', { class: 'form-error', role: 'alert', hidden: true });
    const send = el('button', { type: 'button', class: 'acc-button primary', id: 'trail-post-send', on: { click: async () => {
      if (!text.value.trim()) { error.textContent = 'Write something about the spot first.'; error.hidden = false; return; }
      send.disabled = true;
      try {
        const r = await putForumPost(trail, text.value, pin);
        o.clearCompose();
        drawCompose();
        if (r.sent) { await load(0); toast('Your post is on the forum.'); } else { drawWaiting(); toast('You are offline: your post is sent when Waymark can be reached.'); }
      } catch (err) {
        error.textContent = problemText(err);
        error.hidden = false;
      }
      send.disabled = false;
    } } }, 'Post');
    composeBox.replaceChildren(el('div', { class: 'trail-comment-form', role: 'group', 'aria-label': 'New post' },
      el('div', 'trail-post-body', pinPicture(page.path, pin, colour), el('p', 'trails-note', 'Pinned at ', coordinateText(pin), '. ',
        el('a', { href: `${base}/forum/pin` }, 'Move the pin'))),
      text, error,
      el('p', 'trail-comment-actions', send, el('button', { type: 'button', class: 'acc-button', on: { click: () => { o.clearCompose(); drawCompose(); } } }, 'Cancel'))));
    text.focus();
  }

  const screen = el('article', { class: 'trail-page', dataset: { trail: t.id, screen: 'forum' } },
    el('a', { class: 'trails-back', href: base }, `‹ ${t.name}`),
    el('h2', 'trails-title', 'Community forum'),
    el('p', 'trails-note', `Notes pinned to spots on and around ${t.name}. Everyone can read them.`),
    composeBox, waitingBox, status, list, more, fab);
  current = { trailId: t.id, reload: () => load(0), redraw: () => { if (screen.isConnected) drawWaiting(); } };
  drawCompose();
  drawWaiting();
  load(0);
  introOnce();
  return screen;
}

/** The first visit to any forum says what it is for (Trailz 3.2.6.6.1). */
function introOnce() {
  if (localStorage.getItem(SEEN_KEY)) return;
  localStorage.setItem(SEEN_KEY, '1');
  choose({
    title: 'The community forum', name: 'forum-intro',
    message: 'Pin a note to a spot on the trail: water, a washout, wildlife, a view. Posts carry your name and the date and everyone can read them, '
      + 'so keep them about the trail and kind. Reported posts are checked by the trail’s operators.',
    actions: [{ id: 'ok', label: 'Got it', kind: 'primary' }],
  });
}

/**
 * The drop-pin screen: the map moves under a pin fixed in the middle of what is visible.
 * @param {any} page @param {{onCreate: () => void}} o
 */
export function dropPinScreen(page, o) {
  const t = page.summary;
  return el('article', { class: 'trail-page', dataset: { trail: t.id, screen: 'pin' } },
    el('a', { class: 'trails-back', href: `/trails/${encodeURIComponent(t.id)}/forum` }, '‹ Community forum'),
    el('div', 'trail-head', el('h2', 'trails-title', 'Drop a pin'),
      el('button', { type: 'button', class: 'acc-button primary', id: 'trail-create-post', on: { click: o.onCreate } }, 'Create post')),
    el('p', 'trails-note', 'Move the map until the pin marks the spot, then choose Create post. The pin stays in the middle of the map.'));
}
