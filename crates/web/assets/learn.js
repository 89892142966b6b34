// Learning: the hint, the explanation of a position, every legal move and
// the review of a finished game, drawn from the API's answers. How a
// position is explained follows the analysis's `method`: where the parts'
// Grundy values add up by XOR (as Nim's heaps do), the explanation is the
// binary table of those values; where the misère quotient decides, the
// explanation is the table of the heaps' elements and their product.

import { $, h, replace } from './dom.js';
import { capital, midName, nameOf, playedText, plural, possessive } from './text.js';

/** Methods whose parts are worth Nim heaps of their values, added by XOR. */
const XOR_METHODS = ['nim-sum', 'grundy-values', 'odd-steps', 'gaps', 'wythoff-pairs'];
/** Methods explained by the binary table of the parts' values. */
const TABLE_METHODS = [...XOR_METHODS, 'misere-nim'];
const MISERE_TABLE_NOTE = 'Misère play follows the same table until a move would leave only heaps of 1; then leave an odd number of them.';

const known = (v) => v !== null && v !== undefined;
const valueText = (v) => (known(v) ? String(v) : '?');

/** The hint's words. */
export function hintText(view, seat, hint) {
  if (hint.unavailable) {
    return /^analysis not available/i.test(hint.unavailable) ? `${capital(hint.unavailable)}.` : `Analysis not available: ${hint.unavailable}.`;
  }
  const mover = nameOf(view, seat, view.to_move);
  const s = hint.suggestion;
  let text;
  if (hint.winner === 'mover') {
    const count = hint.winning_moves;
    text = `${mover === 'You' ? 'You are' : `${mover} is`} winning: ${s ? s.description : 'any move'}.` +
      (typeof count === 'number' ? ` ${plural(count, 'move')} ${count === 1 ? 'wins' : 'win'} from here.` : '');
  } else {
    text = 'No move wins against perfect play from here.' +
      (s ? ` Try to ${s.description}: it gives the other side the most chances to go wrong.` : '');
  }
  const chosen = hint.quotient && hint.quotient.chosen;
  if (chosen) {
    text += ` It leaves the product ${chosen.product} of the game's misère quotient, ${chosen.in_p ? 'in' : 'not in'} its P-portion.`;
  }
  if (known(hint.nim_sum)) {
    text += view.misere ? ` The nim-sum of the parts is ${hint.nim_sum}.` : ` The Grundy value of the position is ${hint.nim_sum}.`;
  }
  return text;
}

export function renderHint(text, hasMove) {
  $('hint-text').textContent = text;
  $('hint-select').hidden = !hasMove;
  $('hint').hidden = false;
}

/** The explanation and move list could not be had: why. */
export function renderAnalysisError(message) {
  replace($('explain-body'), h('p', { class: 'unavailable' }, capital(message)));
  replace($('moves-body'), h('p', { class: 'unavailable' }, capital(message)));
}

/** The Explain and Moves panels from an analysis of `view`'s position. */
export function renderAnalysis(view, seat, analysis) {
  renderExplain(view, seat, analysis);
  renderMoves(view, analysis);
}

/** Who is to move and whether they win, in words. */
function whoText(view, seat, analysis) {
  if (view.over) return 'The game is over.';
  if (!view.to_move) return '';
  const mover = nameOf(view, seat, view.to_move);
  const subject = mover === 'You' ? 'You are' : `${mover} is`;
  return analysis.winner === 'mover' ? `${subject} to move and can win.` : `${subject} to move and loses against perfect play.`;
}

/** The binary table of the parts' values, with the advice read off it. */
function binaryTable(analysis, total, advise) {
  const values = analysis.components.map((c) => c.value);
  const top = Math.max(0, ...values.map((v) => Math.floor(Math.log2(Math.max(1, v)))));
  const columns = Array.from({ length: top + 1 }, (_, i) => top - i);
  const bit = (v, c) => Math.floor(v / 2 ** c) % 2;
  const ones = columns.map((c) => values.reduce((n, v) => n + bit(v, c), 0));
  const odd = ones.map((n) => n % 2 === 1);
  // The leftmost odd column, and the first part with a 1 there.
  const column = columns.find((c, i) => odd[i]);
  const advised = column === undefined || !advise ? -1 : values.findIndex((v) => bit(v, column) === 1);
  const head = h(
    'tr',
    {},
    h('th', { scope: 'col' }, 'Part'),
    h('th', { scope: 'col' }, 'Value'),
    columns.map((c, i) => h('th', { scope: 'col', class: odd[i] ? 'odd' : null }, `${2 ** c}s`, h('span', { class: 'visually-hidden' }, ' column'))),
  );
  const body = values.map((v, r) =>
    h(
      'tr',
      { class: advised === r ? 'advised' : null },
      h('th', { scope: 'row' }, capital(analysis.components[r].label)),
      advised === r ? h('td', { class: 'leave' }, `${v} → ${v ^ total}`) : h('td', { class: 'value' }, String(v)),
      columns.map((c, i) => h('td', { class: `bit${bit(v, c) ? ' one' : ''}${odd[i] ? ' odd' : ''}` }, String(bit(v, c)))),
    ),
  );
  const foot = [
    h('tr', { class: 'ones' }, h('th', { scope: 'row' }, 'Ones'), h('td', {}, ''), ones.map((n, i) => h('td', { class: odd[i] ? 'odd' : null }, String(n)))),
    h('tr', { class: 'parity' }, h('th', { scope: 'row' }, 'Column'), h('td', {}, ''), odd.map((o) => h('td', { class: o ? 'odd' : 'even' }, o ? 'odd ✱' : 'even'))),
  ];
  const table = h(
    'div',
    { class: 'table-scroll' },
    h('table', { class: 'bits grundy-values' }, h('caption', { class: 'visually-hidden' }, 'The Grundy value of each part, in binary'), h('thead', {}, head), h('tbody', {}, body), h('tfoot', {}, foot)),
  );
  let reading;
  if (!advise) reading = null;
  else if (advised < 0) reading = 'Every column has an even number of 1s (the total is 0), so whoever moves now loses against perfect play.';
  else {
    const v = values[advised];
    reading = `The leftmost odd column is the ${2 ** column}s column. ${capital(analysis.components[advised].label)} has a 1 there: a move there that leaves a value of ${v ^ total} (${v} ⊕ ${total}) makes every column even.`;
  }
  return { table, reading };
}

/** What the misère quotient's proof covers, in words. */
function coverage(q) {
  if (q.period) return `for heaps of every size (from heap ${q.period.preperiod} on, the elements repeat with period ${q.period.period})`;
  return known(q.proved_upto) ? `for heaps of up to ${q.proved_upto} tokens` : 'for these heaps';
}

/** The misère quotient's explanation: each heap's element, their product, and why the move wins. */
function quotientExplanation(view, q) {
  const generators = q.generators.map((g) => `${g.name} (heap ${g.heap})`).join(', ');
  const relations = q.relations.length ? ` with ${q.relations.join(', ')}` : '';
  const pSet = `{${q.p_portion.join(', ')}}`;
  const advised = q.chosen ? q.chosen.heap.label : null;
  const rows = q.heaps.map((x) =>
    h(
      'tr',
      { class: advised === x.label ? 'advised' : null },
      h('th', { scope: 'row' }, capital(x.label)),
      h('td', { class: 'value' }, String(x.size)),
      h('td', { class: advised === x.label ? 'leave' : 'value' }, advised === x.label ? `${x.element} → ${q.chosen.replaced_by}` : x.element),
    ),
  );
  const foot = h(
    'tr',
    { class: 'total' },
    h('th', { scope: 'row' }, 'Product'),
    h('td', {}, ''),
    h('td', { class: 'value' }, `${q.product} (${q.in_p ? 'in' : 'not in'} the P-portion)`),
  );
  const table = h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'bits misere-quotient' },
      h('caption', { class: 'visually-hidden' }, "Each heap's element of the misère quotient, and their product"),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Part'), h('th', { scope: 'col' }, 'Tokens'), h('th', { scope: 'col' }, 'Element'))),
      h('tbody', {}, rows),
      h('tfoot', {}, foot),
    ),
  );
  let reading;
  if (view.over) reading = null;
  else if (q.in_p) reading = `The product ${q.product} is in the P-portion ${pSet}: every move changes one heap's element and leaves a product outside it, and the other side can always bring it back.`;
  else if (q.chosen) {
    const leaves = q.chosen.leaves.length ? q.chosen.leaves.map((x) => `${x.size} (${x.element})`).join(' and ') : 'nothing (1)';
    reading = `The product ${q.product} is not in the P-portion ${pSet}. To ${q.chosen.description}: ${q.chosen.heap.label} (${q.chosen.heap.element}) becomes ${leaves}, and the product becomes ${q.chosen.product}, ${q.chosen.in_p ? 'in' : 'not in'} the P-portion — the other side is left a lost position.`;
  } else reading = `The product ${q.product} is not in the P-portion ${pSet}: a move that brings it there wins.`;
  return {
    explanation: [
      h('p', {}, `In misère play this game is solved by its misère quotient: a commutative monoid of ${q.order} elements, generated by ${generators}${relations}, proved ${coverage(q)}. Every heap is worth an element; the position is worth the product of its heaps' elements, and whoever moves from a product in the P-portion ${pSet} loses against perfect play.`),
      reading ? h('p', { class: 'reading' }, reading) : null,
    ],
    table,
    sum: `${q.heaps.map((x) => x.element).join(' · ')} = ${q.product}`,
  };
}

function renderExplain(view, seat, analysis) {
  const components = analysis.components || [];
  const allKnown = components.length > 0 && components.every((c) => known(c.value));
  const xor = XOR_METHODS.includes(analysis.method);
  const tabled = TABLE_METHODS.includes(analysis.method) && allKnown;
  const total = known(analysis.total) ? analysis.total : components.reduce((t, c) => t ^ (c.value || 0), 0);
  const winning = analysis.winning_moves || [];
  let advice;
  if (view.over) advice = 'There is no move left.';
  else if (analysis.winner === 'mover' && winning.length) {
    advice = `${winning.length === 1 ? 'The winning move' : 'Winning moves'}: ${winning.map((m) => m.description).join('; ')}.` +
      (analysis.complete === false ? ' (Not every winning move is listed.)' : '');
  } else if (analysis.winner === 'mover') advice = 'Whoever moves now can win.';
  else advice = 'No move wins against perfect play: play on and hope for a mistake.';

  let explanation = null;
  let table = null;
  let product = null;
  if (analysis.quotient) {
    ({ explanation, table, sum: product } = quotientExplanation(view, analysis.quotient));
  } else if (tabled) {
    const binary = binaryTable(analysis, total, xor);
    table = binary.table;
    explanation = [
      h('p', {}, 'Every part of the position is worth a Nim heap of its Grundy value (a Nim heap is worth its size). Write each value in binary and count the 1s in each column. A column with an odd number of 1s is marked ', h('strong', {}, 'odd ✱'), '.'),
      view.over || !binary.reading ? null : h('p', { class: 'reading' }, binary.reading),
    ];
  } else if (components.length) {
    if (xor) {
      explanation = h('p', {}, 'Every part of the position is worth a Nim heap of its Grundy value; the whole is worth the XOR (nim-sum) of the parts. Whoever moves from a total of 0 loses against perfect play.');
    }
    const rows = components.map((c) => h('tr', {}, h('th', { scope: 'row' }, capital(c.label)), h('td', { class: 'value' }, valueText(c.value))));
    const foot = xor && components.length > 1
      ? h('tr', { class: 'total' }, h('th', { scope: 'row' }, 'Total (XOR)'), h('td', { class: 'value' }, valueText(analysis.total)))
      : null;
    table = h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'bits grundy-values' },
        h('caption', { class: 'visually-hidden' }, 'The value of each part'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Part'), h('th', { scope: 'col' }, xor ? 'Grundy value' : 'Value'))),
        h('tbody', {}, rows),
        h('tfoot', {}, foot),
      ),
    );
  }
  const sum = xor && allKnown && components.length > 1 ? `${components.map((c) => c.value).join(' ⊕ ')} = ${total}` : null;
  replace(
    $('explain-body'),
    h('p', {}, h('strong', {}, 'Method: '), `${analysis.method_text || analysis.method}.`),
    explanation,
    table,
    h('p', { class: 'nim-sum' }, sum ? ['Total (XOR): ', h('code', {}, sum), '. '] : null, product ? ['Product: ', h('code', {}, product), '. '] : null, whoText(view, seat, analysis)),
    h('p', { class: 'advice' }, h('strong', {}, 'The move: '), advice),
    analysis.method === 'misere-nim' ? h('p', { class: 'field-help' }, MISERE_TABLE_NOTE) : null,
  );
}

function renderMoves(view, analysis) {
  const body = $('moves-body');
  if (!analysis.moves) {
    body.replaceChildren(h('p', {}, 'There are too many moves to list here.'));
    return;
  }
  if (analysis.moves.length === 0) {
    body.replaceChildren(h('p', {}, 'No moves are left: the game is over.'));
    return;
  }
  const xor = XOR_METHODS.includes(analysis.method);
  const winning = analysis.moves.filter((m) => m.wins).length;
  body.replaceChildren(
    h(
      'p',
      {},
      winning
        ? `${plural(winning, 'move')} ${winning === 1 ? 'wins' : 'win'} (marked ✓ wins).${xor && !view.misere ? ' A winning move leaves a nim-sum of 0.' : ''}`
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
          known(o.value) ? h('span', { class: 'opt-sum' }, `${xor ? 'nim-sum' : 'value'} ${o.value}`) : null,
          o.wins ? h('strong', { class: 'opt-win' }, '✓ wins') : null,
        ),
      ),
    ),
  );
}

/** The review of a finished game: each player's first mistake. */
export function renderReview(view, seat, review) {
  const items = ['first', 'second'].map((side) => {
    const name = nameOf(view, seat, side);
    const mistake = review[side];
    if (!mistake) return h('li', { class: 'clean' }, h('strong', {}, name), ' never gave away a winning position.');
    const who = midName(name) === 'You' ? 'you' : midName(name);
    return h(
      'li',
      { class: 'mistake' },
      h('strong', {}, `${possessive(name)} first mistake`),
      `: move ${mistake.move_number}, ${playedText(who, mistake.played.description || mistake.played.text)}. ` +
        `To ${mistake.better.description || mistake.better.text} would have kept the win.`,
    );
  });
  if (review.unjudged) {
    items.push(h('li', { class: 'unjudged' }, `${plural(review.unjudged, 'move')} could not be judged: the analysis is not available there.`));
  }
  $('review-list').replaceChildren(...items);
  $('review').hidden = false;
}
