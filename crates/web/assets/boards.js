// The boards of the other rule sets: heaps with gaps, pairs of piles, a
// staircase, Northcott's rows and Fibonacci Nim's heap, and moving along
// their buttons with the keyboard.

import { $, h, plural, reducedMotion } from './dom.js';
import { st } from './state.js';
import { canMove, names } from './names.js';
import { BOARD_LABELS, boardBefore, pieceName } from './rules.js';

function navButton(ctx, cls, key, label, data, unavailable) {
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

function ghosts(ctx, n) {
  const out = [];
  for (let k = 0; k < n; k += 1) out.push(h('span', { class: `token ghost${ctx.animate ? ' leaving' : ''}`, 'aria-hidden': 'true' }));
  if (n) out.push(h('span', { class: 'taken-note' }, `${n} just taken`));
  return out;
}

function lineLabel(name, count, note) {
  return h(
    'div',
    { class: 'heap-label', 'aria-hidden': 'true' },
    h('span', { class: 'heap-name' }, name),
    h('span', { class: 'heap-count' }, count),
    note ? h('span', { class: 'heap-note' }, note) : null,
  );
}

function heapsBoard(ctx) {
  const { view } = ctx;
  const rules = view.rules;
  const heaps = view.board.heaps;
  const before = ctx.before && ctx.before.heaps;
  const runs = !!rules.runs && (rules.heaps_at_once || 1) === 1;
  const tokensPlay = rules.id !== 'grundy';
  return heaps.map((size, i) => {
    const n = i + 1;
    let removed = 0;
    let note = null;
    if (before) {
      const was = before[i];
      if (was === undefined) note = 'new heap';
      else if (was > size && before.length === heaps.length) removed = was - size;
      else if (was !== size) note = `was ${was}`;
    }
    const items = [];
    for (let t = 1; t <= size; t += 1) {
      if (rules.splits && t > 1) {
        items.push(
          navButton(ctx, 'gap', `g${n}:${t - 1}`, `Heap ${n}: split between tokens ${t - 1} and ${t}, leaving ${t - 1} and ${size - t + 1}`, {
            act: 'gap',
            heap: n,
            at: t - 1,
          }),
        );
      }
      if (!tokensPlay) {
        items.push(h('span', { class: 'token static', 'aria-hidden': 'true' }));
        continue;
      }
      const label = runs ? `Heap ${n}, token ${t} of ${size}` : `Heap ${n}, token ${t} of ${size}: take ${size - t + 1}`;
      items.push(navButton(ctx, 'token', `h${n}:${t}`, label, { act: 'heap', heap: n, index: t }));
    }
    items.push(...ghosts(ctx, removed));
    if (size === 0) items.push(h('span', { class: 'empty-heap' }, 'empty'));
    return h(
      'div',
      {
        class: `heap line${removed || note ? ' last-move' : ''}${size === 0 ? ' empty' : ''}`,
        role: 'group',
        'aria-label': `Heap ${n}: ${plural(size, 'token')}${note ? ` (${note})` : ''}`,
        'data-heap': n,
        'data-line': `h${n}`,
      },
      lineLabel(`Heap ${n}`, plural(size, 'token'), note),
      h('div', { class: `tokens${rules.splits ? ' with-gaps' : ''}` }, items),
    );
  });
}

function pairsBoard(ctx) {
  const { view } = ctx;
  const pairs = view.board.pairs;
  const before = ctx.before && ctx.before.pairs;
  return pairs.map(([a, b], i) => {
    const p = i + 1;
    const piles = [a, b].map((size, q) => {
      const was = before && before[i] ? before[i][q] : size;
      const items = [];
      for (let t = 1; t <= size; t += 1) {
        items.push(
          navButton(ctx, 'token', `p${p}:${q}:${t}`, `Pair ${p}, pile ${q + 1}, token ${t} of ${size}: take ${size - t + 1}`, {
            act: 'pile',
            pair: p,
            pile: q,
            index: t,
          }),
        );
      }
      items.push(...ghosts(ctx, Math.max(0, was - size)));
      if (size === 0) items.push(h('span', { class: 'empty-heap' }, 'empty'));
      return h(
        'div',
        {
          class: `pile line${was > size ? ' last-move' : ''}`,
          role: 'group',
          'aria-label': `Pair ${p}, pile ${q + 1}: ${plural(size, 'token')}`,
          'data-line': `p${p}:${q}`,
        },
        lineLabel(`Pile ${q + 1}`, plural(size, 'token')),
        h('div', { class: 'tokens' }, items),
      );
    });
    return h(
      'div',
      { class: 'pair', role: 'group', 'aria-label': `Pair ${p}: piles of ${a} and ${b}` },
      h('div', { class: 'pair-name', 'aria-hidden': 'true' }, `Pair ${p}`),
      piles,
    );
  });
}

function stairsBoard(ctx) {
  const { view } = ctx;
  const steps = view.board.steps;
  const before = ctx.before && ctx.before.steps;
  const rows = steps.map((count, i) => {
    const s = i + 1;
    const was = before && before[i] !== undefined ? before[i] : count;
    const items = [];
    for (let c = 1; c <= count; c += 1) {
      const n = count - c + 1;
      const where = s === 1 ? 'off the staircase' : `to step ${s - 1}`;
      items.push(navButton(ctx, 'token coin', `s${s}:${c}`, `Step ${s}, coin ${c} of ${count}: move ${plural(n, 'coin')} ${where}`, { act: 'coin', step: s, index: c }));
    }
    items.push(...ghosts(ctx, Math.max(0, was - count)));
    const note = count > was ? `+${count - was}` : null;
    if (count === 0) items.push(h('span', { class: 'empty-heap' }, 'no coins'));
    return h(
      'div',
      {
        class: `heap stair line${was !== count ? ' last-move' : ''}`,
        role: 'group',
        style: `--step: ${s - 1}`,
        'aria-label': `Step ${s}: ${plural(count, 'coin')}${s === 1 ? ', the lowest step' : ''}`,
        'data-line': `s${s}`,
      },
      lineLabel(`Step ${s}`, plural(count, 'coin'), note),
      h('div', { class: 'tokens tread' }, items),
    );
  });
  rows.reverse(); // the top step first, like a staircase seen from the side
  rows.push(h('p', { class: 'stairs-floor', 'aria-hidden': 'true' }, '↓ Coins moved from step 1 leave the staircase.'));
  return rows;
}

function rowsBoard(ctx) {
  const { view } = ctx;
  const { rows, white_to_move: whiteMoves } = view.board;
  const before = ctx.before && ctx.before.rows;
  const [first, second] = names(view);
  const mover = pieceName(whiteMoves);
  const legend = h(
    'p',
    { class: 'pieces-legend' },
    h('span', { class: 'legend-item' }, h('span', { class: 'piece white small', 'aria-hidden': 'true' }, 'W'), ` White: ${first}`),
    h('span', { class: 'legend-item' }, h('span', { class: 'piece black small', 'aria-hidden': 'true' }, 'B'), ` Black: ${second}`),
    view.over ? null : h('span', { class: 'legend-item to-move' }, `${mover} to move`),
  );
  const lines = rows.map((row, i) => {
    const r = i + 1;
    const mine = whiteMoves ? row.white : row.black;
    const other = whiteMoves ? row.black : row.white;
    const old = before && before[i];
    const movedFrom = old ? (old.white !== row.white ? old.white : old.black !== row.black ? old.black : null) : null;
    const gap = Math.abs(row.white - row.black) - 1;
    const squares = [];
    for (let c = 1; c <= row.width; c += 1) {
      const reachable = c !== mine && (mine < other ? c < other : c > other);
      let content = null;
      if (c === row.white) content = h('span', { class: 'piece white', 'aria-hidden': 'true' }, 'W');
      else if (c === row.black) content = h('span', { class: 'piece black', 'aria-hidden': 'true' }, 'B');
      const cls = `square${c === movedFrom ? ' was-here' : ''}`;
      if (reachable && !view.over) {
        const newGap = Math.abs(c - other) - 1;
        const b = navButton(ctx, `${cls} target`, `r${r}:${c}`, `Row ${r}, column ${c}: move ${mover} here, leaving a gap of ${newGap}`, {
          act: 'square',
          row: r,
          col: c,
        });
        squares.push(b);
      } else {
        const what = c === row.white ? 'White' : c === row.black ? 'Black' : 'empty';
        squares.push(h('span', { class: `${cls}${content ? ' occupied' : ''}`, title: `Column ${c}: ${what}` }, content));
      }
    }
    return h(
      'div',
      {
        class: `northcott-row line${movedFrom !== null ? ' last-move' : ''}`,
        role: 'group',
        'aria-label': `Row ${r}: White on column ${row.white}, Black on column ${row.black}, gap ${gap}`,
        'data-line': `r${r}`,
      },
      lineLabel(`Row ${r}`, `gap ${gap}`, movedFrom !== null ? `moved from ${movedFrom}` : null),
      h('div', { class: 'squares', style: `--width: ${row.width}` }, squares),
    );
  });
  return [legend, ...lines];
}

function fibonacciBoard(ctx) {
  const { view } = ctx;
  const { heap, max_take: most } = view.board;
  const was = ctx.before ? ctx.before.heap : heap;
  const items = [];
  for (let t = 1; t <= heap; t += 1) {
    const take = heap - t + 1;
    const out = take > most;
    const label = out
      ? `Token ${t} of ${heap}: taking ${take} is not allowed (at most ${most})`
      : `Token ${t} of ${heap}: take ${take}`;
    items.push(navButton(ctx, `token${out ? ' out-of-reach' : ''}`, `f:${t}`, label, { act: 'fib', index: t }, out));
  }
  items.push(...ghosts(ctx, Math.max(0, was - heap)));
  if (heap === 0) items.push(h('span', { class: 'empty-heap' }, 'empty'));
  const limit = heap ? `you may take 1 to ${most}` : 'nothing left';
  return [
    h(
      'div',
      { class: `heap fib line${was > heap ? ' last-move' : ''}`, role: 'group', 'aria-label': `The heap: ${plural(heap, 'token')}, ${limit}`, 'data-line': 'f' },
      lineLabel('Heap', plural(heap, 'token')),
      h('div', { class: 'tokens' }, items),
    ),
    h('p', { class: 'fib-limit' }, view.over ? 'The heap is empty.' : `${ctx.interactive ? 'You may' : 'The next move may'} take 1 to ${most} (at most twice the last take, and not the whole heap at first).`),
  ];
}

export function renderOtherBoard(view, moved) {
  const board = $('board');
  const interactive = canMove(view);
  const active = document.activeElement;
  const focusKey = active && board.contains(active) && active.dataset ? active.dataset.key : null;
  const focusLine = focusKey ? active.closest('.line')?.dataset.line : null;
  const ctx = { view, interactive, readOnly: !st.seat, before: boardBefore(view), animate: moved && !reducedMotion.matches };
  const kind = view.board.kind;
  const parts =
    kind === 'pairs' ? pairsBoard(ctx)
      : kind === 'stairs' ? stairsBoard(ctx)
        : kind === 'rows' ? rowsBoard(ctx)
          : kind === 'fibonacci' ? fibonacciBoard(ctx)
            : heapsBoard(ctx);
  board.replaceChildren(...parts);
  board.dataset.kind = kind;
  board.setAttribute('aria-label', BOARD_LABELS[kind] || 'Board');
  board.classList.toggle('inactive', !interactive);
  for (const line of board.querySelectorAll('.line')) {
    const buttons = [...line.querySelectorAll('button[data-key]')];
    if (!buttons.length) continue;
    const remembered = buttons.find((b) => b.dataset.key === st.nav[line.dataset.line]);
    const usable = buttons.filter((b) => !b.classList.contains('out-of-reach'));
    (remembered || usable[usable.length - 1] || buttons[buttons.length - 1]).tabIndex = 0;
  }
  if (focusKey) {
    const again = board.querySelector(`button[data-key="${CSS.escape(focusKey)}"]`);
    const line = focusLine && board.querySelector(`.line[data-line="${CSS.escape(focusLine)}"]`);
    const fallback = (line && [...line.querySelectorAll('button[data-key]')].pop()) || board.querySelector('button[data-key]');
    if (again || fallback) focusNav(again || fallback);
    else if (!$('result').hidden) $('result-title').focus();
  }
}

export function focusNav(button) {
  const line = button.closest('.line');
  if (line) {
    for (const b of line.querySelectorAll('button[data-key]')) b.tabIndex = -1;
    st.nav[line.dataset.line] = button.dataset.key;
  }
  button.tabIndex = 0;
  button.focus();
}

export function onOtherKey(event) {
  const button = event.target.closest('button[data-key]');
  if (!button) return;
  const board = $('board');
  const lines = [...board.querySelectorAll('.line')].filter((l) => l.querySelector('button[data-key]'));
  const line = button.closest('.line');
  const list = [...line.querySelectorAll('button[data-key]')];
  const i = list.indexOf(button);
  let target = null;
  switch (event.key) {
    case 'ArrowLeft':
      target = list[Math.max(0, i - 1)];
      break;
    case 'ArrowRight':
      target = list[Math.min(list.length - 1, i + 1)];
      break;
    case 'Home':
      target = list[0];
      break;
    case 'End':
      target = list[list.length - 1];
      break;
    case 'ArrowUp':
    case 'ArrowDown': {
      const next = lines[lines.indexOf(line) + (event.key === 'ArrowUp' ? -1 : 1)];
      if (next) {
        const there = [...next.querySelectorAll('button[data-key]')];
        target = there[Math.min(i, there.length - 1)];
      } else {
        target = button;
      }
      break;
    }
    default:
      return;
  }
  event.preventDefault();
  focusNav(target);
}
