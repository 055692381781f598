// One way to build DOM in every area: el(tag, attrs, ...children).
//   el('p', 'muted', 'Nothing yet.')                    a class and a text
//   el('a', { href: '/me', 'aria-current': 'page' }, 'You')   attributes and properties
//   el('ul', null, items.map(...))                       children: nodes, text, arrays; null is skipped
// In attrs: `class`/`className` sets the class, `dataset` an object of data-*, `on` an object of
// event listeners, a key that is a property of the element (type, value, hidden, tabIndex,
// htmlFor…) is set as a property, anything else as an attribute; null, undefined and false skip.

/**
 * @param {string} tag
 * @param {string|null|undefined|Record<string, any>} [attrs] a class name, or attributes
 * @param {...any} children
 * @returns {any} the element (typed loosely so callers can use input/button properties)
 */
export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  if (typeof attrs === 'string') {
    if (attrs) e.className = attrs;
  } else if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v == null || v === false) continue;
      if (k === 'class' || k === 'className') e.className = v;
      else if (k === 'dataset') Object.assign(e.dataset, v);
      else if (k === 'on') for (const [type, fn] of Object.entries(v)) e.addEventListener(type, fn);
      else if (k in e && !k.includes('-')) /** @type {any} */ (e)[k] = v;
      else e.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(e, children);
  return e;
}

function append(parent, children) {
  for (const c of children) {
    if (c == null || c === false) continue;
    if (Array.isArray(c)) append(parent, c);
    else parent.append(c instanceof Node ? c : String(c));
  }
}
