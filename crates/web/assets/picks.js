// Choosing a move on the other rule sets' boards: what a click chooses, the
// move text and question it makes, and the selection bar.

import { $, plural, showError } from './dom.js';
import { st } from './state.js';
import { canMove, waitingForFriend } from './names.js';
import { chunks, numbersIn, pieceName } from './rules.js';
import { confirmSelection } from './game.js';
import { renderSelection } from './nim-board.js';
import { focusNav } from './boards.js';

/** The choice after clicking `button`, from the choice `pick` (or null). */
function pickAfter(view, pick, d) {
  const rules = view.rules;
  switch (d.act) {
    case 'gap':
      return { split: { heap: Number(d.heap), at: Number(d.at) } };
    case 'heap': {
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
    }
    case 'pile': {
      const pair = Number(d.pair);
      const q = Number(d.pile);
      const size = view.board.pairs[pair - 1][q];
      const x = size - Number(d.index) + 1;
      const amounts = [0, 0];
      amounts[q] = x;
      if (pick && pick.pair === pair && pick.amounts[1 - q] === x) amounts[1 - q] = x;
      return { pair, amounts };
    }
    case 'coin': {
      const step = Number(d.step);
      return { step, coins: view.board.steps[step - 1] - Number(d.index) + 1 };
    }
    case 'square':
      return { row: Number(d.row), col: Number(d.col) };
    case 'fib':
      return { take: view.board.heap - Number(d.index) + 1 };
    default:
      return pick;
  }
}

const pickKey = (p) =>
  JSON.stringify({ ...p, runs: p.runs && p.runs.map(({ heap, from, to }) => [heap, from, to]).sort((x, y) => x[0] - y[0]) });
const samePick = (a, b) => !!a && !!b && pickKey(a) === pickKey(b);

/** The selection of `pick`: the move text, the question and the button. */
export function describePick(view, pick) {
  if (!pick) return null;
  const board = view.board;
  if (pick.split) {
    const { heap, at } = pick.split;
    const size = board.heaps[heap - 1];
    return { pick, move: `${heap} 0 ${at}`, question: `Split heap ${heap} into ${at} and ${size - at}?`, confirm: 'Confirm: split' };
  }
  if (pick.runs) {
    const runs = pick.runs.slice().sort((a, b) => a.heap - b.heap);
    if (!runs.length) return null;
    if (runs.length > 1 || (view.rules.heaps_at_once || 1) > 1) {
      const parts = runs.map((r) => `${r.to - r.from + 1} from heap ${r.heap}`);
      const total = runs.reduce((sum, r) => sum + r.to - r.from + 1, 0);
      return {
        pick,
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
      pick,
      move: two ? `${heap} ${take} ${left}` : `${heap} ${take}`,
      question: two ? `Take ${take} from heap ${heap}, leaving ${left} and ${right}?` : `Take ${take} from heap ${heap}?`,
      confirm: `Confirm: take ${take}`,
    };
  }
  if (pick.amounts) {
    const [x, y] = pick.amounts;
    const of = board.pairs.length > 1 ? ` of pair ${pick.pair}` : '';
    let question;
    if (x && y) question = `Take ${x} from both piles${of}?`;
    else if (x) question = `Take ${x} from the first pile${of}?`;
    else question = `Take ${y} from the second pile${of}?`;
    return { pick, move: `${pick.pair} ${x} ${y}`, question, confirm: `Confirm: take ${x && y ? x + y : x || y}` };
  }
  if (pick.step) {
    const { step, coins } = pick;
    const where = step === 1 ? 'off the staircase' : `to step ${step - 1}`;
    return { pick, move: `${step} ${coins}`, question: `Move ${plural(coins, 'coin')} from step ${step} ${where}?`, confirm: 'Confirm: move' };
  }
  if (pick.row) {
    const row = board.rows[pick.row - 1];
    const other = board.white_to_move ? row.black : row.white;
    return {
      pick,
      move: `${pick.row} ${pick.col}`,
      question: `Move ${pieceName(board.white_to_move)} in row ${pick.row} to column ${pick.col}, leaving a gap of ${Math.abs(pick.col - other) - 1}?`,
      confirm: 'Confirm: move',
    };
  }
  if (pick.take) {
    return { pick, move: String(pick.take), question: `Take ${pick.take} from the heap?`, confirm: `Confirm: take ${pick.take}` };
  }
  return null;
}

/** The choice that a move text is (for "Select this move" of a hint). */
export function pickOfMove(view, text) {
  const n = numbersIn(text);
  const board = view.board;
  switch (board.kind) {
    case 'heaps': {
      if (n.length === 3 && n[1] === 0) return { split: { heap: n[0], at: n[2] } };
      if (n.length === 3) return { runs: [{ heap: n[0], from: n[2] + 1, to: n[2] + n[1], anchor: n[2] + 1 }] };
      const runs = chunks(n, 2).map(([heap, take]) => {
        const size = board.heaps[heap - 1] || 0;
        return { heap, from: size - take + 1, to: size, anchor: size - take + 1 };
      });
      return runs.length ? { runs } : null;
    }
    case 'pairs':
      return n.length === 3 ? { pair: n[0], amounts: [n[1], n[2]] } : null;
    case 'stairs':
      return n.length === 2 ? { step: n[0], coins: n[1] } : null;
    case 'rows':
      return n.length === 2 ? { row: n[0], col: n[1] } : null;
    case 'fibonacci':
      return n.length === 1 ? { take: n[0] } : null;
    default:
      return null;
  }
}

/** Whether the board button `b` is part of the choice `pick`. */
function chosenBy(view, pick, b) {
  if (!pick) return false;
  const d = b.dataset;
  const board = view.board;
  switch (d.act) {
    case 'gap':
      return !!pick.split && pick.split.heap === Number(d.heap) && pick.split.at === Number(d.at);
    case 'heap': {
      const t = Number(d.index);
      return !!pick.runs && pick.runs.some((r) => r.heap === Number(d.heap) && t >= r.from && t <= r.to);
    }
    case 'pile': {
      if (!pick.amounts || pick.pair !== Number(d.pair)) return false;
      const q = Number(d.pile);
      const size = board.pairs[pick.pair - 1][q];
      return pick.amounts[q] > 0 && Number(d.index) >= size - pick.amounts[q] + 1;
    }
    case 'coin':
      return pick.step === Number(d.step) && Number(d.index) >= board.steps[pick.step - 1] - pick.coins + 1;
    case 'square':
      return pick.row === Number(d.row) && pick.col === Number(d.col);
    case 'fib':
      return !!pick.take && Number(d.index) >= board.heap - pick.take + 1;
    default:
      return false;
  }
}

function otherPrompt(view) {
  const rules = view.rules;
  switch (view.board.kind) {
    case 'pairs':
      return 'Choose a token in a pile: it and every token after it are taken. Choose the same number in both piles of a pair to take from both.';
    case 'stairs':
      return 'Choose a coin: it and every coin to its right on that step move down one step.';
    case 'rows':
      return `You move ${pieceName(view.board.white_to_move)}: choose a square to slide your piece to, without jumping over the other piece.`;
    case 'fibonacci':
      return `Choose a token: it and every token to its right are taken (1 to ${view.board.max_take}).`;
    default: {
      const k = rules.heaps_at_once || 1;
      if (rules.id === 'grundy') return 'Choose a gap between two tokens to split the heap there (into two unequal heaps).';
      let text = rules.runs
        ? 'Choose a token, then another in the same heap: the run between them is taken. Choose the last one again to play.'
        : k > 1
          ? `Choose a token in up to ${k} heaps: it and every token to its right are taken.`
          : 'Choose a token: it and every token to its right in that heap are taken.';
      if (rules.splits) text += ' Or choose a gap between two tokens to split the heap there.';
      return text;
    }
  }
}

export function renderOtherSelection(view) {
  const sel = st.selection;
  const pick = sel && sel.pick;
  for (const b of $('board').querySelectorAll('button[data-key]')) {
    const chosen = chosenBy(view, pick, b);
    b.classList.toggle('selected', chosen);
    b.setAttribute('aria-pressed', chosen ? 'true' : 'false');
  }
  if (view.board.kind === 'rows') markNorthcottMove(view, pick);
  const interactive = canMove(view);
  $('selection-bar').classList.toggle('active', !!sel);
  $('selection-text').textContent = sel ? sel.question : '';
  $('selection-prompt').textContent = !sel && interactive ? otherPrompt(view) : '';
  $('confirm').setAttribute('aria-disabled', sel && interactive ? 'false' : 'true');
  $('confirm').textContent = sel ? sel.confirm : 'Confirm';
  $('cancel').setAttribute('aria-disabled', sel ? 'false' : 'true');
  $('selection-bar').hidden = !st.seat || view.mode === 'demo' || view.over || waitingForFriend(view);
}

/** Northcott: the piece that would move is marked too. */
function markNorthcottMove(view, pick) {
  for (const piece of $('board').querySelectorAll('.piece.moving')) piece.classList.remove('moving');
  if (!pick || !pick.row) return;
  const row = view.board.rows[pick.row - 1];
  const col = view.board.white_to_move ? row.white : row.black;
  const line = $('board').querySelector(`.line[data-line="r${pick.row}"]`);
  const square = line && line.querySelectorAll('.squares > *')[col - 1];
  const piece = square && square.querySelector('.piece');
  if (piece) piece.classList.add('moving');
}

export function chooseOther(button) {
  const view = st.shown;
  focusNav(button);
  const before = st.selection ? st.selection.pick : null;
  const pick = pickAfter(view, before, button.dataset);
  if (before && samePick(pick, before)) {
    confirmSelection();
    return;
  }
  st.selection = describePick(view, pick);
  showError('game-error', '');
  renderSelection();
}
