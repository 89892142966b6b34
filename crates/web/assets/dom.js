// The page's small tools: finding and making elements, texts, and
// announcing to screen readers.

export const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

export const $ = (id) => document.getElementById(id);

/** Creates an element with attributes and children. */
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key === 'style') setStyle(node, String(value));
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * Sets declarations such as `--step: 2` one by one through the CSSOM: the
 * server's Content-Security-Policy refuses inline `style` attributes.
 */
function setStyle(node, declarations) {
  for (const declaration of declarations.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon > 0) node.style.setProperty(declaration.slice(0, colon).trim(), declaration.slice(colon + 1).trim());
  }
}

/** Replaces an element's children, skipping empty ones. */
export function replace(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let announceTimer = null;
export function announce(text) {
  const live = $('live');
  clearTimeout(announceTimer);
  live.textContent = '';
  // A fresh text node after a tick is read even when it repeats the last.
  announceTimer = setTimeout(() => {
    live.textContent = text;
  }, 60);
}

export function showError(where, message) {
  $(where).textContent = message || '';
}
