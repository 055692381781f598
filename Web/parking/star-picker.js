// Stars for reviews (PRK-14): a read-only row that says its rating to screen readers, and a
// picker that is a radio group, so it works with a keyboard (arrows move and choose, as in any
// radio group) and announces "4 stars, 4 of 5".

/** "4.7" with one decimal, the way ratings are quoted. @param {number} n */
export const ratingText = (n) => n.toLocaleString(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** @param {number} stars @param {string} [label] */
export function starRow(stars, label) {
  const span = document.createElement('span');
  span.className = 'stars';
  span.setAttribute('role', 'img');
  span.setAttribute('aria-label', label ?? `${ratingText(stars)} out of 5 stars`);
  const whole = Math.round(stars);
  span.textContent = '★'.repeat(whole) + '☆'.repeat(5 - whole);
  return span;
}

/**
 * @param {{value: number, label: string, onChange?: (stars: number) => void}} o value 0 for none chosen yet
 * @returns {{element: HTMLElement, get value(): number}}
 */
export function starPicker(o) {
  let value = o.value;
  const group = document.createElement('div');
  group.className = 'star-picker';
  group.setAttribute('role', 'radiogroup');
  group.setAttribute('aria-label', o.label);
  /** @type {HTMLButtonElement[]} */
  const radios = [];
  for (let n = 1; n <= 5; n++) {
    const b = document.createElement('button');
    b.type = 'button';
    b.setAttribute('role', 'radio');
    b.setAttribute('aria-label', n === 1 ? '1 star' : `${n} stars`);
    b.dataset.stars = String(n);
    b.textContent = '★';
    b.addEventListener('click', () => choose(n));
    b.addEventListener('keydown', (e) => {
      const step = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 }[e.key];
      if (e.key === 'Home' || e.key === 'End') {
        e.preventDefault();
        choose(e.key === 'Home' ? 1 : 5, true);
      } else if (step) {
        e.preventDefault();
        choose(Math.min(5, Math.max(1, (value || n) + step)), true);
      } else if (e.key === ' ') {
        e.preventDefault();
        choose(n);
      }
    });
    radios.push(b);
  }
  group.append(...radios);

  function draw() {
    radios.forEach((b, i) => {
      const n = i + 1;
      b.setAttribute('aria-checked', String(n === value));
      b.classList.toggle('on', n <= value);
      // One tab stop for the group: the chosen star, or the first when none is.
      b.tabIndex = n === (value || 1) ? 0 : -1;
    });
    group.dataset.value = String(value);
  }

  function choose(n, focus = false) {
    value = n;
    draw();
    if (focus) radios[n - 1].focus();
    o.onChange?.(n);
  }

  draw();
  return { element: group, get value() { return value; } };
}
