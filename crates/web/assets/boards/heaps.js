// Board kind `heaps`: rows of tokens (Nim, the heap games, Moore's Nim_k).
// What a move may do comes from the game's `rules`: `heaps_at_once` (take
// from up to k heaps), `runs` (take from inside a heap, leaving two),
// `splits` (split a heap without taking) and `takes` (false where a move
// only splits).

import { h } from '../dom.js';
import { chunks, numbersIn, plural } from '../text.js';
import { ghosts, lineLabel, navButton, randomInt } from './common.js';

/** Other starts offered besides the rule set's own: the Stanford GGP Nim games'. */
const PRESETS = [
  [1, 3, 5, 7],
  [1, 5, 4, 2],
  [2, 2, 10, 10],
  [11, 12, 15, 25],
  [12, 12, 20, 20],
];

const takesTokens = (rules) => rules.takes !== false;

/** A choice as compared: a run of tokens by its ends, not where it began. */
const pickKey = (p) =>
  JSON.stringify({ ...p, runs: p.runs && p.runs.map(({ heap, from, to }) => [heap, from, to]).sort((x, y) => x[0] - y[0]) });

export default {
  kind: 'heaps',
  label: 'Heaps',
  parts: 'heaps',
  help: 'Each token is a button. Choosing a token takes it and every token to its right in the same heap. Tab moves between heaps, arrow keys move between tokens, Enter or Space chooses, a second Enter confirms, and Escape cancels.',
  presets: PRESETS,
  presetsNote: 'Starts of the Stanford General Game Playing Nim games:',

  random(limits) {
    const count = randomInt(3, Math.min(5, limits.most_parts));
    return Array.from({ length: count }, () => randomInt(1, Math.min(10, limits.largest_number)));
  },

  limitsText(limits, position) {
    return `Custom start: ${position}, separated by spaces; 1 to ${limits.most_parts} heaps of up to ${limits.largest_number} tokens.`;
  },

  fromNumbers(numbers) {
    return { kind: 'heaps', heaps: numbers.slice() };
  },

  title: (board) => board.heaps.join(' '),

  render(ctx) {
    const { view } = ctx;
    const rules = view.rules;
    const heaps = view.board.heaps;
    const before = ctx.before && ctx.before.heaps;
    const runs = !!rules.runs && (rules.heaps_at_once || 1) === 1;
    const tokensPlay = takesTokens(rules);
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
  },

  pickAfter(view, pick, d) {
    const rules = view.rules;
    if (d.act === 'gap') return { split: { heap: Number(d.heap), at: Number(d.at) } };
    const heap = Number(d.heap);
    const t = Number(d.index);
    const size = view.board.heaps[heap - 1];
    const k = rules.heaps_at_once || 1;
    const old = pick && pick.runs ? pick.runs : [];
    if (k > 1) {
      let runs = old.filter((r) => r.heap !== heap);
      if (runs.length >= k) runs = runs.slice(runs.length - k + 1);
      return { runs: [...runs, { heap, from: t, to: size, anchor: t }] };
    }
    if (rules.runs) {
      const run = old.find((r) => r.heap === heap);
      if (run) {
        if (run.from === run.to && run.anchor === t) return pick;
        return { runs: [{ heap, from: Math.min(run.anchor, t), to: Math.max(run.anchor, t), anchor: run.anchor }] };
      }
      return { runs: [{ heap, from: t, to: t, anchor: t }] };
    }
    return { runs: [{ heap, from: t, to: size, anchor: t }] };
  },

  describe(view, pick) {
    const board = view.board;
    if (pick.split) {
      const { heap, at } = pick.split;
      const size = board.heaps[heap - 1];
      return { move: `${heap} 0 ${at}`, question: `Split heap ${heap} into ${at} and ${size - at}?`, confirm: 'Confirm: split' };
    }
    const runs = (pick.runs || []).slice().sort((a, b) => a.heap - b.heap);
    if (!runs.length) return null;
    if (runs.length > 1 || (view.rules.heaps_at_once || 1) > 1) {
      const parts = runs.map((r) => `${r.to - r.from + 1} from heap ${r.heap}`);
      const total = runs.reduce((sum, r) => sum + r.to - r.from + 1, 0);
      return {
        move: runs.map((r) => `${r.heap} ${r.to - r.from + 1}`).join(' '),
        question: `Take ${parts.length > 1 ? parts.slice(0, -1).join(', ') + ' and ' + parts[parts.length - 1] : parts[0]}?`,
        confirm: `Confirm: take ${total}`,
      };
    }
    const { heap, from, to } = runs[0];
    const size = board.heaps[heap - 1];
    const take = to - from + 1;
    const left = from - 1;
    const right = size - to;
    const two = left > 0 && right > 0;
    return {
      move: two ? `${heap} ${take} ${left}` : `${heap} ${take}`,
      question: two ? `Take ${take} from heap ${heap}, leaving ${left} and ${right}?` : `Take ${take} from heap ${heap}?`,
      confirm: `Confirm: take ${take}`,
    };
  },

  pickOfMove(view, text) {
    const n = numbersIn(text);
    if (n.length === 3 && n[1] === 0) return { split: { heap: n[0], at: n[2] } };
    if (n.length === 3) return { runs: [{ heap: n[0], from: n[2] + 1, to: n[2] + n[1], anchor: n[2] + 1 }] };
    const runs = chunks(n, 2).map(([heap, take]) => {
      const size = view.board.heaps[heap - 1] || 0;
      return { heap, from: size - take + 1, to: size, anchor: size - take + 1 };
    });
    return runs.length ? { runs } : null;
  },

  same: (a, b) => pickKey(a) === pickKey(b),

  chosen(view, pick, d) {
    if (d.act === 'gap') return !!pick.split && pick.split.heap === Number(d.heap) && pick.split.at === Number(d.at);
    const t = Number(d.index);
    return !!pick.runs && pick.runs.some((r) => r.heap === Number(d.heap) && t >= r.from && t <= r.to);
  },

  prompt(view) {
    const rules = view.rules;
    if (!takesTokens(rules)) return 'Choose a gap between two tokens to split the heap there.';
    const k = rules.heaps_at_once || 1;
    let text = rules.runs
      ? 'Choose a token, then another in the same heap: the run between them is taken. Choose the last one again to play.'
      : k > 1
        ? `Choose a token in up to ${k} heaps: it and every token to its right are taken.`
        : 'Choose a token: it and every token to its right in that heap are taken.';
    if (rules.splits) text += ' Or choose a gap between two tokens to split the heap there.';
    return text;
  },
};
