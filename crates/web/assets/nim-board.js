// The Nim board: heaps of token buttons, choosing a move on them with the
// mouse or the keyboard, and the selection bar. Other rule sets' boards are
// in boards.js and picks.js; the handlers here pass them on.

import { $, announce, h, plural, reducedMotion, showError } from './dom.js';
import { st } from './state.js';
import { canMove, statusText, waitingForFriend } from './names.js';
import { isNim } from './rules.js';
import { confirmSelection } from './game.js';
import { onOtherKey } from './boards.js';
import { chooseOther, renderOtherSelection } from './picks.js';

function cursorFor(heap, size) {
  const c = st.cursor[heap];
  if (!c || c > size) return size;
  return c;
}

function tokenLabel(heapNo, index, size) {
  return `Heap ${heapNo}, token ${index} of ${size}: take ${size - index + 1}`;
}

export function renderBoard(view, moved) {
  const board = $('board');
  const interactive = canMove(view);
  const readOnly = !st.seat;
  const last = view.moves[view.ply - 1];
  let focusKey = null;
  const active = document.activeElement;
  if (active && active.classList.contains('token') && board.contains(active)) {
    focusKey = { heap: Number(active.dataset.heap), index: Number(active.dataset.index) };
  }
  const animate = moved && !reducedMotion.matches;
  const rows = view.heaps.map((size, i) => {
    const heapNo = i + 1;
    const justTaken = last && last.heap === heapNo ? last.take : 0;
    const countText = plural(size, 'token');
    const tokens = [];
    const cursor = cursorFor(i, size);
    for (let index = 1; index <= size; index += 1) {
      tokens.push(
        h('button', {
          type: 'button',
          class: 'token',
          'data-heap': heapNo,
          'data-index': index,
          'aria-label': tokenLabel(heapNo, index, size),
          'aria-pressed': 'false',
          'aria-disabled': interactive ? null : 'true',
          disabled: readOnly,
          tabindex: index === cursor ? '0' : '-1',
        }),
      );
    }
    for (let k = 0; k < justTaken; k += 1) {
      tokens.push(h('span', { class: `token ghost${animate ? ' leaving' : ''}`, 'aria-hidden': 'true' }));
    }
    if (justTaken) tokens.push(h('span', { class: 'taken-note' }, `${justTaken} just taken`));
    else if (size === 0) tokens.push(h('span', { class: 'empty-heap' }, 'empty'));
    return h(
      'div',
      {
        class: `heap${justTaken ? ' last-move' : ''}${size === 0 ? ' empty' : ''}`,
        role: 'group',
        'aria-label': `Heap ${heapNo}: ${plural(size, 'token')}`,
        'data-heap': heapNo,
      },
      h(
        'div',
        { class: 'heap-label', 'aria-hidden': 'true' },
        h('span', { class: 'heap-name' }, `Heap ${heapNo}`),
        h('span', { class: 'heap-count' }, countText),
      ),
      h('div', { class: 'tokens' }, tokens),
    );
  });
  board.replaceChildren(...rows);
  board.classList.toggle('inactive', !interactive);
  if (focusKey) focusToken(focusKey.heap, focusKey.index);
}

/** Focuses the token at (heap, index) or the nearest one still there. */
export function focusToken(heapNo, index) {
  const heaps = st.shown.heaps;
  let target = heapNo;
  if (!heaps[target - 1]) {
    const order = [];
    for (let d = 1; d < heaps.length; d += 1) order.push(heapNo + d, heapNo - d);
    target = order.find((n) => n >= 1 && n <= heaps.length && heaps[n - 1] > 0);
  }
  if (!target) {
    if (!$('result').hidden) $('result-title').focus();
    return;
  }
  const size = heaps[target - 1];
  const i = Math.max(1, Math.min(index, size));
  moveCursor(target, i, true);
}

function tokenAt(heapNo, index) {
  return $('board').querySelector(`button.token[data-heap="${heapNo}"][data-index="${index}"]`);
}

function moveCursor(heapNo, index, focus) {
  const heapEl = $('board').querySelector(`.heap[data-heap="${heapNo}"]`);
  if (!heapEl) return;
  for (const t of heapEl.querySelectorAll('button.token')) t.tabIndex = -1;
  const token = tokenAt(heapNo, index);
  if (!token) return;
  token.tabIndex = 0;
  st.cursor[heapNo - 1] = index;
  if (focus) token.focus();
}

export function renderSelection() {
  const view = st.shown;
  if (!isNim(view)) {
    renderOtherSelection(view);
    return;
  }
  const sel = st.selection;
  for (const token of $('board').querySelectorAll('button.token')) {
    const heap = Number(token.dataset.heap);
    const index = Number(token.dataset.index);
    const size = view.heaps[heap - 1];
    const chosen = !!sel && sel.heap === heap && index >= size - sel.take + 1;
    token.classList.toggle('selected', chosen);
    token.setAttribute('aria-pressed', chosen ? 'true' : 'false');
  }
  const interactive = canMove(view);
  $('selection-bar').classList.toggle('active', !!sel);
  $('selection-text').textContent = sel ? `Take ${sel.take} from heap ${sel.heap}?` : '';
  $('selection-prompt').textContent =
    !sel && interactive ? 'Choose a token: it and every token to its right in that heap are taken.' : '';
  $('confirm').setAttribute('aria-disabled', sel && interactive ? 'false' : 'true');
  $('confirm').textContent = sel ? `Confirm: take ${sel.take}` : 'Confirm';
  $('cancel').setAttribute('aria-disabled', sel ? 'false' : 'true');
  $('selection-bar').hidden = !st.seat || view.mode === 'demo' || view.over || waitingForFriend(view);
}

function choose(heapNo, index) {
  const view = st.shown;
  const size = view.heaps[heapNo - 1];
  const take = size - index + 1;
  moveCursor(heapNo, index, false);
  if (st.selection && st.selection.heap === heapNo && st.selection.take === take) {
    confirmSelection();
    return;
  }
  st.selection = { heap: heapNo, take };
  showError('game-error', '');
  renderSelection();
}

export function onBoardClick(event) {
  if (!isNim(st.shown)) {
    const button = event.target.closest('button[data-key]');
    if (!button || button.disabled) return;
    if (button.getAttribute('aria-disabled') === 'true') {
      announce(canMove(st.shown) ? button.getAttribute('aria-label') : statusText(st.shown));
      return;
    }
    chooseOther(button);
    return;
  }
  const token = event.target.closest('button.token');
  if (!token || token.disabled) return;
  if (token.getAttribute('aria-disabled') === 'true') {
    announce(statusText(st.shown));
    return;
  }
  choose(Number(token.dataset.heap), Number(token.dataset.index));
}

export function onBoardKey(event) {
  if (!isNim(st.shown)) {
    onOtherKey(event);
    return;
  }
  const token = event.target.closest('button.token');
  if (!token) return;
  const heaps = st.shown.heaps;
  const heapNo = Number(token.dataset.heap);
  const index = Number(token.dataset.index);
  const size = heaps[heapNo - 1];
  let target = null;
  const nextHeap = (step) => {
    for (let n = heapNo + step; n >= 1 && n <= heaps.length; n += step) if (heaps[n - 1] > 0) return n;
    return null;
  };
  switch (event.key) {
    case 'ArrowLeft':
      target = [heapNo, Math.max(1, index - 1)];
      break;
    case 'ArrowRight':
      target = [heapNo, Math.min(size, index + 1)];
      break;
    case 'Home':
      target = [heapNo, 1];
      break;
    case 'End':
      target = [heapNo, size];
      break;
    case 'ArrowUp':
    case 'ArrowDown': {
      const n = nextHeap(event.key === 'ArrowUp' ? -1 : 1);
      if (n) target = [n, Math.min(index, heaps[n - 1])];
      else target = [heapNo, index];
      break;
    }
    default:
      return;
  }
  event.preventDefault();
  moveCursor(target[0], target[1], true);
}
