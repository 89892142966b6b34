// Learning: the hint, the explanation, every legal move and the review of
// a finished game, for Nim and for the other rule sets.

import { $, announce, h, plural, replace, showError } from './dom.js';
import { api } from './api.js';
import { st } from './state.js';
import { canMove, midName, nameOf, possessive } from './names.js';
import { capital, isNim, playedText } from './rules.js';

function moveName(mv) {
  return `take ${mv.take} from heap ${mv.heap}`;
}

export async function showHint() {
  const view = st.shown;
  if (!canMove(view)) {
    announce('Hints are for your turn.');
    return;
  }
  const key = `${view.id}:${view.ply}`;
  let hint;
  try {
    hint = await api('GET', `/api/games/${view.id}/hint`);
  } catch (e) {
    showError('game-error', e.message);
    return;
  }
  if (!st.shown || `${st.shown.id}:${st.shown.ply}` !== key) return;
  const mover = nameOf(view, view.to_move);
  const you = mover === 'You';
  let text;
  const s = hint.suggestion;
  if (!isNim(view)) {
    text = otherHintText(view, hint);
  } else if (hint.winner === 'mover') {
    text = `${you ? 'You are' : `${mover} is`} winning: ${s ? moveName(s) : 'any move'}. ` +
      `${plural(hint.winning_moves, 'move')} ${hint.winning_moves === 1 ? 'wins' : 'win'} from here.`;
  } else {
    text = `No move wins against perfect play from here. ` +
      (s ? `Try to ${moveName(s)}: it gives the other side the most chances to go wrong.` : '');
  }
  if (isNim(view)) text += ` The nim-sum is ${hint.nim_sum}.`;
  st.hintFor = key;
  st.hintMove = s;
  $('hint-text').textContent = text;
  $('hint-select').hidden = !s;
  $('hint').hidden = false;
  announce(text);
}

export async function loadAnalysis(view) {
  if (!isNim(view)) {
    loadOtherAnalysis(view);
    return;
  }
  const key = `${view.heaps.join(',')}|${view.misere}`;
  if (st.analysisKey === key) return;
  st.analysisKey = key;
  let analysis;
  try {
    analysis = await api('GET', `/api/analyze?heaps=${view.heaps.join(',')}&misere=${view.misere}`);
  } catch (e) {
    st.analysisKey = null;
    $('explain-body').textContent = e.message;
    $('moves-body').textContent = e.message;
    return;
  }
  if (st.analysisKey !== key) return;
  renderExplain(analysis, view);
  renderOptions(analysis, view);
}

function adviceText(advice, analysis) {
  const value = (c) => 2 ** c;
  switch (advice.kind) {
    case 'game-over':
      return 'The game is over: there is nothing left to take.';
    case 'all-columns-even':
      return 'Every column has an even number of 1s (the nim-sum is 0), so whoever moves now loses against perfect play. Take a single token and hope for a mistake.';
    case 'odd-singles-left':
      return `Misère endgame: only heaps of 1 are left, ${advice.singles} of them, an odd number. Whoever moves now loses.`;
    case 'flip': {
      const take = advice.from - advice.to;
      return `The leftmost odd column is the ${value(advice.column)}s column. Heap ${advice.heap} has a 1 there: flip its bits in every odd column, turning ${advice.from} into ${advice.to}. So take ${take} from heap ${advice.heap}; then every column is even.`;
    }
    case 'misere-endgame': {
      const take = advice.from - advice.to;
      const column =
        advice.column_rule_to === null || advice.column_rule_to === undefined
          ? ''
          : ` (the column rule alone would leave ${advice.column_rule_to})`;
      return `Misère endgame: take ${take} from heap ${advice.heap}, leaving ${advice.to}${column}, so that an odd number of heaps of 1 remain (${advice.singles_left}). Your opponent then takes the last token.`;
    }
    default:
      return analysis.winner === 'mover' ? 'Whoever moves now can win.' : 'Whoever moves now loses against perfect play.';
  }
}

function renderExplain(analysis, view) {
  const table = analysis.table;
  const advice = table.advice;
  const adviceHeap = advice.heap;
  const head = h(
    'tr',
    {},
    h('th', { scope: 'col' }, 'Heap'),
    h('th', { scope: 'col' }, 'Size'),
    table.columns.map((c, i) =>
      h('th', { scope: 'col', class: table.odd[i] ? 'odd' : null }, `${2 ** c}s`, h('span', { class: 'visually-hidden' }, ' column')),
    ),
  );
  const body = table.rows.map((bits, r) =>
    h(
      'tr',
      { class: adviceHeap === r + 1 ? 'advised' : null },
      h('th', { scope: 'row' }, `Heap ${r + 1}`),
      adviceHeap === r + 1
        ? h('td', { class: 'leave' }, `${analysis.heaps[r]} → ${advice.to}`)
        : h('td', {}, String(analysis.heaps[r])),
      bits.map((bit, i) => h('td', { class: `bit${bit ? ' one' : ''}${table.odd[i] ? ' odd' : ''}` }, String(bit))),
    ),
  );
  const ones = h(
    'tr',
    { class: 'ones' },
    h('th', { scope: 'row' }, 'Ones'),
    h('td', {}, ''),
    table.ones.map((n, i) => h('td', { class: table.odd[i] ? 'odd' : null }, String(n))),
  );
  const parity = h(
    'tr',
    { class: 'parity' },
    h('th', { scope: 'row' }, 'Column'),
    h('td', {}, ''),
    table.odd.map((odd) => h('td', { class: odd ? 'odd' : 'even' }, odd ? 'odd ✱' : 'even')),
  );
  const nimSum = analysis.heaps.length
    ? `${analysis.heaps.join(' ⊕ ')} = ${analysis.nim_sum} (binary ${analysis.nim_sum.toString(2)})`
    : String(analysis.nim_sum);
  let who = '';
  if (view.to_move && !view.over) {
    const mover = nameOf(view, view.to_move);
    const subject = mover === 'You' ? 'You are' : `${mover} is`;
    who = analysis.winner === 'mover'
      ? `${subject} to move and can win.`
      : `${subject} to move and loses against perfect play.`;
    if (mover === 'You' && analysis.winner !== 'mover') who = 'You are to move and lose against perfect play.';
  }
  replace($('explain-body'),
    h('p', {}, 'Write each heap in binary and count the 1s in each column. A column with an odd number of 1s is marked ', h('strong', {}, 'odd ✱'), '.'),
    h(
      'div',
      { class: 'table-scroll' },
      h('table', { class: 'bits' }, h('caption', { class: 'visually-hidden' }, 'The heaps in binary'), h('thead', {}, head), h('tbody', {}, body), h('tfoot', {}, ones, parity)),
    ),
    h('p', { class: 'nim-sum' }, 'Nim-sum: ', h('code', {}, nimSum), '. ', who),
    h('p', { class: 'advice' }, h('strong', {}, 'The move: '), adviceText(advice, analysis)),
    view.misere
      ? h('p', { class: 'field-help' }, 'Misère play follows the same table until a move would leave only heaps of 1; then leave an odd number of them.')
      : null,
  );
}

/**
 * The Moves panel's body, or null after saying why there is no list (too
 * many moves, or none left).
 */
function movesBody(analysis) {
  const body = $('moves-body');
  if (!analysis.moves) {
    body.replaceChildren(h('p', {}, 'There are too many moves to list here.'));
    return null;
  }
  if (analysis.moves.length === 0) {
    body.replaceChildren(h('p', {}, 'No moves are left: the game is over.'));
    return null;
  }
  return body;
}

function renderOptions(analysis, view) {
  const body = movesBody(analysis);
  if (!body) return;
  const byHeap = new Map();
  for (const option of analysis.moves) {
    if (!byHeap.has(option.heap)) byHeap.set(option.heap, []);
    byHeap.get(option.heap).push(option);
  }
  const winning = analysis.moves.filter((m) => m.wins).length;
  const groups = [...byHeap.entries()].map(([heap, options]) =>
    h(
      'div',
      { class: 'option-group' },
      h('h3', {}, `Heap ${heap} (${plural(view.heaps[heap - 1], 'token')})`),
      h(
        'ul',
        { class: 'options-list' },
        options.map((o) =>
          h(
            'li',
            { class: o.wins ? 'wins' : null },
            h('span', { class: 'opt-move' }, `take ${o.take}`),
            h('span', { class: 'opt-sum' }, `nim-sum ${o.nim_sum}`),
            o.wins ? h('strong', { class: 'opt-win' }, '✓ wins') : null,
          ),
        ),
      ),
    ),
  );
  body.replaceChildren(
    h(
      'p',
      {},
      winning
        ? `${plural(winning, 'move')} ${winning === 1 ? 'wins' : 'win'} (marked ✓ wins). A winning move leaves a nim-sum of 0${view.misere ? ', except in the misère endgame' : ''}.`
        : 'No move wins against perfect play: every move leaves a nim-sum other than 0.',
    ),
    ...groups,
  );
}

export async function loadReview(view) {
  const key = `${view.id}:${view.version}`;
  if (st.reviewFor === key) return;
  st.reviewFor = key;
  let review;
  try {
    review = await api('GET', `/api/games/${view.id}/review`);
  } catch (e) {
    st.reviewFor = null;
    // The server is busy: ask again a little later, if the game is still shown.
    if (e.status === 503) setTimeout(() => st.shown && st.shown.id === view.id && loadReview(st.shown), 2000);
    return;
  }
  if (st.reviewFor !== key) return;
  const items = ['first', 'second'].map((side) => {
    const name = nameOf(view, side);
    const mistake = review[side];
    if (!mistake) {
      return h('li', { class: 'clean' }, h('strong', {}, name), ` never gave away a winning position.`);
    }
    const who = midName(name) === 'You' ? 'you' : midName(name);
    if (!isNim(view) || mistake.played.take === undefined) {
      return h(
        'li',
        { class: 'mistake' },
        h('strong', {}, `${possessive(name)} first mistake`),
        `: move ${mistake.move_number}, ${playedText(who, mistake.played.description || mistake.played.text)}. ` +
          `To ${mistake.better.description || mistake.better.text} would have kept the win.`,
      );
    }
    return h(
      'li',
      { class: 'mistake' },
      h('strong', {}, `${possessive(name)} first mistake`),
      `: move ${mistake.move_number}, ${who} took ${mistake.played.take} from heap ${mistake.played.heap}. ` +
        `Taking ${mistake.better.take} from heap ${mistake.better.heap} would have kept the win.`,
    );
  });
  if (review.unjudged) {
    items.push(h('li', { class: 'unjudged' }, `${plural(review.unjudged, 'move')} could not be judged: the analysis is not available there.`));
  }
  $('review-list').replaceChildren(...items);
  $('review').hidden = false;
}

function otherHintText(view, hint) {
  const mover = nameOf(view, view.to_move);
  const you = mover === 'You';
  if (hint.unavailable) {
    return /^analysis not available/i.test(hint.unavailable) ? `${capital(hint.unavailable)}.` : `Analysis not available: ${hint.unavailable}.`;
  }
  const s = hint.suggestion;
  let text;
  if (hint.winner === 'mover') {
    const count = hint.winning_moves;
    text = `${you ? 'You are' : `${mover} is`} winning: ${s ? s.description : 'any move'}.` +
      (typeof count === 'number' ? ` ${plural(count, 'move')} ${count === 1 ? 'wins' : 'win'} from here.` : '');
  } else {
    text = 'No move wins against perfect play from here.' +
      (s ? ` Try to ${s.description}: it gives the other side the most chances to go wrong.` : '');
  }
  if (hint.nim_sum !== null && hint.nim_sum !== undefined) text += ` The Grundy value of the position is ${hint.nim_sum}.`;
  return text;
}

async function loadOtherAnalysis(view) {
  const key = `${view.id}|${view.ply}|${view.heaps.join(',')}`;
  if (st.analysisKey === key) return;
  st.analysisKey = key;
  let analysis;
  try {
    analysis = await api('GET', `/api/games/${encodeURIComponent(view.id)}/analysis`);
  } catch (e) {
    if (st.analysisKey !== key) return;
    st.analysisKey = e.status === 422 ? key : null;
    replace($('explain-body'), h('p', { class: 'unavailable' }, capital(e.message)));
    replace($('moves-body'), h('p', { class: 'unavailable' }, capital(e.message)));
    return;
  }
  if (st.analysisKey !== key) return;
  renderOtherExplain(analysis, view);
  renderOtherMoves(analysis, view);
}

const valueText = (v) => (v === null || v === undefined ? '?' : String(v));

function renderOtherExplain(analysis, view) {
  const components = analysis.components || [];
  const known = components.every((c) => c.value !== null && c.value !== undefined);
  // Methods whose parts are Nim heaps, added by XOR.
  const xor = ['grundy-values', 'odd-steps', 'gaps', 'nim-sum', 'wythoff-pairs'].includes(analysis.method) && components.length > 1;
  const grundy = ['grundy-values', 'odd-steps', 'gaps', 'nim-sum', 'wythoff-pairs'].includes(analysis.method);
  const rows = components.map((c) =>
    h('tr', {}, h('th', { scope: 'row' }, capital(c.label)), h('td', { class: 'value' }, valueText(c.value))),
  );
  const total = xor
    ? h('tr', { class: 'total' }, h('th', { scope: 'row' }, 'Total (XOR)'), h('td', { class: 'value' }, valueText(analysis.total)))
    : null;
  let who = '';
  if (view.to_move && !view.over) {
    const mover = nameOf(view, view.to_move);
    const subject = mover === 'You' ? 'You are' : `${mover} is`;
    who = analysis.winner === 'mover' ? `${subject} to move and can win.` : `${subject} to move and loses against perfect play.`;
  } else if (view.over) {
    who = 'The game is over.';
  }
  const sum = xor && known && analysis.total !== null && analysis.total !== undefined
    ? `${components.map((c) => c.value).join(' ⊕ ')} = ${analysis.total}`
    : null;
  const winning = analysis.winning_moves || [];
  let advice;
  if (view.over) advice = 'There is no move left.';
  else if (analysis.winner === 'mover' && winning.length) {
    advice = `${winning.length === 1 ? 'The winning move' : 'Winning moves'}: ${winning.map((m) => m.description).join('; ')}.` +
      (analysis.complete === false ? ' (Not every winning move is listed.)' : '');
  } else if (analysis.winner === 'mover') advice = 'Whoever moves now can win.';
  else advice = 'No move wins: every move leaves a position whose value is not 0. Play on and hope for a mistake.';
  replace(
    $('explain-body'),
    h('p', {}, h('strong', {}, 'Method: '), `${analysis.method_text || analysis.method}.`),
    xor
      ? h('p', {}, 'Every part of the position is worth a Nim heap of its Grundy value; the whole is worth the XOR (nim-sum) of the parts. Whoever moves from a total of 0 loses against perfect play.')
      : components.length && grundy
        ? h('p', {}, 'The position is worth a Nim heap of its Grundy value: whoever moves from a value of 0 loses against perfect play.')
        : null,
    components.length
      ? h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'bits grundy-values' },
          h('caption', { class: 'visually-hidden' }, `The ${grundy ? 'Grundy value' : 'value'} of each part`),
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Part'), h('th', { scope: 'col' }, grundy ? 'Grundy value' : 'Value'))),
          h('tbody', {}, rows),
          h('tfoot', {}, total),
        ),
      )
      : null,
    h('p', { class: 'nim-sum' }, sum ? ['Total: ', h('code', {}, sum), '. '] : null, capital(analysis.winner === 'mover' ? 'the player to move wins with perfect play.' : 'the player to move loses against perfect play.'), ' ', who),
    h('p', { class: 'advice' }, h('strong', {}, 'The move: '), advice),
  );
}

function renderOtherMoves(analysis, view) {
  const body = movesBody(analysis);
  if (!body) return;
  const winning = analysis.moves.filter((m) => m.wins).length;
  body.replaceChildren(
    h(
      'p',
      {},
      winning
        ? `${plural(winning, 'move')} ${winning === 1 ? 'wins' : 'win'} (marked ✓ wins).${view.misere ? '' : ' A winning move leaves a position of value 0.'}`
        : 'No move wins against perfect play.',
    ),
    h(
      'ul',
      { class: 'options-list wide' },
      analysis.moves.map((o) =>
        h(
          'li',
          { class: o.wins ? 'wins' : null },
          h('span', { class: 'opt-move' }, o.description || o.text),
          h('span', { class: 'opt-sum' }, `value ${valueText(o.value)}`),
          o.wins ? h('strong', { class: 'opt-win' }, '✓ wins') : null,
        ),
      ),
    ),
  );
}
