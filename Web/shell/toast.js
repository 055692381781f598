// Brief messages that need no answer ("Car location saved").

let timer = 0;

/** @param {string} text @param {number} [ms] */
export function toast(text, ms = 2600) {
  const el = document.getElementById('toast');
  if (!el) return;
  el.textContent = text;
  el.classList.add('show');
  clearTimeout(timer);
  timer = setTimeout(() => el.classList.remove('show'), ms);
}
