// The Reviews section of a lot card (PRK-14): the lot's rating with a count per star, the
// reviews newest first, and your own review to write, edit or delete. A review written while
// Waymark cannot be reached waits in the outbox, shown here as "Waiting to send" (PRK-19).

import { el, button } from '../accounts/forms.js';
import { problemText } from '../shell/api.js';
import { signedIn, onSessionChange } from '../accounts/session.js';
import { writes, onChange, onSent } from '../accounts/outbox.js';
import { confirm } from '../shell/dialog.js';
import { listReviews, putReview, deleteReview } from './api.js';
import { starRow, starPicker, ratingText } from './star-picker.js';

const MAX_TEXT = 2000;
let uid = 0;

/** The section on the open card: the card is rebuilt on every open, so there is one at most. */
let current = /** @type {{sec: HTMLElement, redraw: () => void, reload: (session: boolean) => void, lotId: string}|null} */ (null);
const shown = () => (current?.sec.isConnected ? current : null);
onChange(() => shown()?.redraw());
onSent((w) => { if (w.ref?.lotId && shown()?.lotId === w.ref.lotId) shown()?.reload(false); });
onSessionChange(() => shown()?.reload(true));

/**
 * @param {{lot: any, onSignIn: () => void, onRating?: (lotId: string, rating: any) => void}} o
 *   onRating: the lot's rating changed (to keep the lot list and filters in step)
 */
export function reviewsSection(o) {
  const { lot } = o;
  const sec = el('section', 'section reviews');
  sec.dataset.testid = 'reviews';
  const headingId = `reviews-title-${++uid}`;
  const h3 = el('h3', '', 'Reviews');
  h3.id = headingId;
  sec.setAttribute('aria-labelledby', headingId);
  const summary = el('div', 'rating-summary');
  summary.dataset.testid = 'rating-summary';
  const mineBox = el('div', 'my-review');
  const list = el('ul', 'review-list');
  list.dataset.testid = 'review-list';
  const more = button('Show older reviews', () => load(true), 'acc-button');
  more.hidden = true;
  const status = el('p', 'muted small', 'Loading reviews…');
  status.setAttribute('role', 'status');
  sec.append(h3, summary, mineBox, status, list, more);

  /** @type {any} */
  let mine = null;
  let editing = false;
  let cursor = '';

  /** The review waiting in the outbox for this lot, if any. */
  const waiting = () => writes().find((w) => (w.kind === 'review' || w.kind === 'review-delete') && w.ref?.lotId === lot.id) ?? null;

  async function load(older = false) {
    try {
      const page = await listReviews(lot.id, older ? cursor : '');
      status.hidden = true;
      if (!older) {
        mine = page.mine ?? null;
        drawSummary(page.rating);
        list.replaceChildren();
        o.onRating?.(lot.id, page.rating);
      }
      list.append(...page.reviews.map(reviewItem));
      cursor = page.nextCursor ?? '';
      more.hidden = !cursor;
      if (!older) drawMine();
      if (!list.children.length) { status.textContent = 'No reviews yet.'; status.hidden = false; }
    } catch (err) {
      status.textContent = `Reviews can’t be loaded now. ${problemText(err)}`;
      status.hidden = false;
      if (!older) drawMine();
    }
  }

  function drawSummary(rating) {
    summary.replaceChildren();
    sec.dataset.count = String(rating.count);
    sec.dataset.average = rating.average != null ? rating.average.toFixed(2) : '';
    if (!rating.count) { summary.append(el('p', 'muted', 'Not rated yet.')); return; }
    const top = el('p', 'rating-line');
    top.append(el('strong', 'rating-average', ratingText(rating.average)), ' ', starRow(rating.average),
      ' ', el('span', 'muted', rating.count === 1 ? '1 review' : `${rating.count} reviews`));
    const bars = el('ul', 'rating-bars');
    bars.setAttribute('aria-label', 'Reviews by stars');
    for (let n = 5; n >= 1; n--) {
      const count = rating.stars[n - 1] ?? 0;
      const li = el('li');
      li.setAttribute('aria-label', `${n} stars: ${count}`);
      const bar = el('span', 'bar');
      bar.setAttribute('aria-hidden', 'true');
      const fill = el('span');
      fill.style.width = `${Math.round((count / rating.count) * 100)}%`;
      bar.append(fill);
      li.append(el('span', 'n', `${n}★`), bar, el('span', 'c', String(count)));
      bars.append(li);
    }
    summary.append(top, bars);
  }

  function reviewItem(r) {
    const li = el('li', `review${r.mine ? ' mine' : ''}`);
    li.dataset.reviewId = r.id;
    const head = el('p', 'review-head');
    const when = new Date(r.updatedAt).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
    head.append(starRow(r.stars, r.stars === 1 ? '1 star' : `${r.stars} stars`), ' ', el('strong', '', r.mine ? `${r.author} (you)` : r.author),
      ' ', el('small', 'muted', r.updatedAt !== r.createdAt ? `edited ${when}` : when));
    li.append(head);
    if (r.text) li.append(el('p', 'review-text', r.text));
    return li;
  }

  function drawMine() {
    mineBox.replaceChildren();
    const queued = waiting();
    if (queued) {
      const p = el('p', `review-waiting ${queued.state}`);
      p.dataset.testid = 'review-waiting';
      p.textContent = queued.state === 'failed'
        ? `Your review was not sent: ${queued.error ?? 'the server refused it'}. See Waiting to Send in your account.`
        : queued.kind === 'review-delete'
          ? 'Your review will be deleted when Waymark can be reached.'
          : `Waiting to send: your ${'★'.repeat(queued.ref.stars)} review is sent when Waymark can be reached.`;
      mineBox.append(p);
    }
    if (!signedIn()) {
      const b = button('Sign in to write a review', () => o.onSignIn(), 'acc-button');
      b.dataset.action = 'review-sign-in';
      mineBox.append(b);
      return;
    }
    if (editing) { mineBox.append(form()); return; }
    const write = button(mine ? 'Edit your review' : 'Write a review', () => { editing = true; drawMine(); focusPicker(); }, 'acc-button primary');
    write.dataset.action = 'write-review';
    mineBox.append(write);
    if (mine) {
      const del = button('Delete your review', () => remove(), 'acc-button');
      del.dataset.action = 'delete-review';
      mineBox.append(del);
    }
  }

  function focusPicker() {
    /** @type {HTMLElement|null} */ (mineBox.querySelector('.star-picker [tabindex="0"]'))?.focus();
  }

  function form() {
    const queued = waiting();
    const start = queued?.kind === 'review' ? queued.ref : mine;
    const f = /** @type {HTMLFormElement} */ (el('form', 'review-form'));
    f.noValidate = true;
    f.dataset.testid = 'review-form';
    const legend = el('p', 'field-label', 'Your rating');
    legend.id = `review-stars-${uid}`;
    const picker = starPicker({ value: start?.stars ?? 0, label: 'Your rating' });
    const textId = `review-text-${++uid}`;
    const label = /** @type {HTMLLabelElement} */ (el('label', 'field-label', 'Your review (optional)'));
    label.htmlFor = textId;
    const text = /** @type {HTMLTextAreaElement} */ (el('textarea'));
    text.id = textId;
    text.name = 'text';
    text.rows = 4;
    text.maxLength = MAX_TEXT;
    text.value = start?.text ?? '';
    text.placeholder = 'What should other drivers know?';
    const error = el('p', 'form-error');
    error.setAttribute('role', 'alert');
    error.hidden = true;
    const save = el('button', 'acc-button primary', mine ? 'Save changes' : 'Post review');
    /** @type {HTMLButtonElement} */ (save).type = 'submit';
    save.dataset.action = 'save-review';
    const cancel = button('Cancel', () => { editing = false; drawMine(); }, 'acc-button');
    const row = el('div', 'booking-actions');
    row.append(save, cancel);
    f.append(legend, picker.element, label, text, error, row);
    f.addEventListener('submit', async (e) => {
      e.preventDefault();
      if (!picker.value) {
        error.textContent = 'Choose 1 to 5 stars.';
        error.hidden = false;
        focusPicker();
        return;
      }
      save.setAttribute('disabled', '');
      try {
        const r = await putReview(lot, picker.value, text.value.trim());
        editing = false;
        if (r.sent) { await load(); } else { drawMine(); }
      } catch (err) {
        error.textContent = problemText(err);
        error.hidden = false;
      } finally {
        save.removeAttribute('disabled');
      }
    });
    return f;
  }

  async function remove() {
    const ok = await confirm({ name: 'confirm-delete-review', title: 'Delete your review?', message: `Your review of ${lot.name} is removed for everyone.`, confirm: 'Delete', danger: true });
    if (!ok) return;
    try {
      const r = await deleteReview(lot);
      if (r.sent) { mine = null; await load(); } else { drawMine(); }
    } catch (err) {
      status.textContent = problemText(err);
      status.hidden = false;
    }
  }

  current = {
    sec,
    redraw: () => { if (!editing) drawMine(); },
    reload: (/** @type {boolean} */ session) => { if (session) editing = false; load(); },
    lotId: lot.id,
  };
  load();
  return sec;
}
