// What the board renderers share: a button of the board, the tokens just
// taken, the label of a line.
//
// A renderer (one module per board kind, see index.js) draws the board as
// lines (elements with class `line` and `data-line`) of buttons (with
// `data-key`, and `data-*` that its `pickAfter` reads); board.js moves
// along them with the keyboard and turns clicks into choices.

import { h } from '../dom.js';

/**
 * A button of the board. `ctx.interactive`: the viewer may move now;
 * `ctx.readOnly`: the viewer holds no seat. An `unavailable` button stays
 * reachable (it says why it cannot be chosen) but is not chosen.
 */
export function navButton(ctx, cls, key, label, data, unavailable) {
  const attrs = {
    type: 'button',
    class: cls,
    'data-key': key,
    'aria-label': label,
    'aria-pressed': 'false',
    'aria-disabled': ctx.interactive && !unavailable ? null : 'true',
    disabled: ctx.readOnly,
    tabindex: '-1',
  };
  for (const [k, v] of Object.entries(data)) attrs[`data-${k}`] = v;
  return h('button', attrs);
}

/** `n` tokens just taken, fading out, and a note saying so. */
export function ghosts(ctx, n) {
  const out = [];
  for (let k = 0; k < n; k += 1) out.push(h('span', { class: `token ghost${ctx.animate ? ' leaving' : ''}`, 'aria-hidden': 'true' }));
  if (n) out.push(h('span', { class: 'taken-note' }, `${n} just taken`));
  return out;
}

/** The visible name of a line (screen readers read the line's group label). */
export function lineLabel(name, count, note) {
  return h(
    'div',
    { class: 'heap-label', 'aria-hidden': 'true' },
    h('span', { class: 'heap-name' }, name),
    h('span', { class: 'heap-count' }, count),
    note ? h('span', { class: 'heap-note' }, note) : null,
  );
}

/** A random whole number from `low` to `high`. */
export const randomInt = (low, high) => low + Math.floor(Math.random() * (high - low + 1));
