// Drawing the game screen around the board: title, players, status,
// result, controls and the list of moves played.

import { $, h, replace } from './dom.js';
import { st } from './state.js';
import { canMove, heapsText, MODE_LABELS, moveText, names, resultText, statusText, waitingForFriend } from './names.js';
import { capital, isNim, moveHelpNodes, playedText, rulesName } from './rules.js';
import { NIM_TEXTS } from './setup.js';
import { renderBoard, renderSelection } from './nim-board.js';
import { renderOtherBoard } from './boards.js';
import { loadAnalysis, loadReview } from './learn.js';
import { loadStats } from './stats.js';

export function render(view, { moved }) {
  const previous = st.shown;
  st.shown = view;
  if (!previous || previous.ply !== view.ply || previous.heaps.join() !== view.heaps.join()) {
    st.selection = null;
  }
  // Hints and the explanation are off while an online game runs, unless
  // its creator allowed them; the moves played and the review stay.
  $('learn').hidden = false;
  $('explain').hidden = !view.help;
  $('moves-panel').hidden = !view.help;
  renderHead(view);
  renderPlayers(view);
  renderStatus(view);
  if (isNim(view)) renderBoard(view, moved);
  else renderOtherBoard(view, moved);
  renderSelection();
  renderControls(view);
  renderLog(view);
  if (st.hintFor !== `${view.id}:${view.ply}`) $('hint').hidden = true;
  if (view.help && ($('explain').open || $('moves-panel').open)) loadAnalysis(view);
  else if (!isNim(view)) st.analysisKey = null;
  if (view.over && !view.partial) {
    loadReview(view);
    if (st.statsForVersion !== `${view.id}:${view.version}`) {
      st.statsForVersion = `${view.id}:${view.version}`;
      loadStats();
    }
  } else {
    $('review').hidden = true;
    st.reviewFor = null;
  }
}

function renderHead(view) {
  const level = view.level ? ` (${view.level})` : '';
  $('game-title').textContent = isNim(view) ? `Nim: ${heapsText(view.start)}` : `${rulesName(view)}: ${heapsText(view.start)}`;
  renderRulesTexts(view);
  $('game-meta').replaceChildren(
    h('span', { class: 'tag' }, view.misere ? 'Misère' : 'Normal'),
    ' ',
    h('span', { class: 'rule-text' }, view.rule.charAt(0).toUpperCase() + view.rule.slice(1) + '.'),
    ' ',
    h('span', { class: 'mode-text' }, `${MODE_LABELS[view.mode] || view.mode}${level}.`),
  );

  const share = $('share');
  share.hidden = !(view.mode === 'online' && st.seat === 'first');
  if (!share.hidden) {
    $('share-link').value = window.location.origin + `/g/${view.id}`;
    $('share-state').textContent = view.seats[1].taken
      ? 'Your friend has joined.'
      : 'Waiting for your friend to open the link…';
  }
  const joinable = view.mode === 'online' && !st.seat && !view.seats[1].taken && !view.over;
  $('join-box').hidden = !joinable;
  const watching = !st.seat && !joinable;
  $('watch-note').hidden = !watching;
  if (watching) {
    $('watch-note').textContent = view.over
      ? 'You are watching this game: it is over.'
      : 'You are watching this game. Moves appear here as they are played; you cannot move.';
  }
}

function renderPlayers(view) {
  const [first, second] = names(view);
  const cards = [
    ['first', first],
    ['second', second],
  ].map(([side, name]) => {
    const toMove = !view.over && view.to_move === side && !waitingForFriend(view);
    const won = view.over && view.winner === side;
    let state = '';
    const waiting = side === 'second' && waitingForFriend(view);
    if (toMove) state = 'to move';
    else if (won) state = 'winner';
    else if (waiting) state = 'seat free';
    return h(
      'li',
      { class: `player${toMove ? ' to-move' : ''}${won ? ' won' : ''}` },
      h('span', { class: 'player-mark', 'aria-hidden': 'true' }, won ? '★' : toMove ? '▶' : ''),
      h(
        'span',
        { class: 'player-text' },
        h('span', { class: 'player-name' }, name),
        h('span', { class: 'player-role' }, side === 'first' ? 'moves first' : 'moves second'),
      ),
      state ? h('span', { class: 'player-state' }, state) : null,
    );
  });
  $('players').replaceChildren(...cards);
}

function renderStatus(view) {
  const lastMove = view.moves[view.ply - 1];
  $('last-move').hidden = !lastMove || view.over;
  $('last-move').textContent = lastMove ? `Last move: ${moveText(view, lastMove)}` : '';
  const status = $('status');
  status.textContent = statusText(view);
  status.className = `status${canMove(view) ? ' yours' : ''}${view.over ? ' over' : ''}`;
  const result = $('result');
  const finished = view.over && !view.partial;
  const wasHidden = result.hidden;
  result.hidden = !finished;
  if (finished) {
    const [headline, detail] = resultText(view);
    $('result-title').textContent = headline;
    $('result-detail').textContent = detail;
    $('again').hidden = !(st.seat || view.mode === 'demo');
    result.className = `result ${st.seat === view.winner || (st.seat === 'both' && view.mode !== 'demo') ? 'happy' : ''}`;
    if (wasHidden && $('board').contains(document.activeElement)) $('result-title').focus();
  }
  let title = 'bouton: play Nim';
  if (finished) title = `${resultText(view)[0]} · bouton`;
  else if (canMove(view)) title = 'Your turn · bouton';
  else if (isNim(view)) title = `Nim ${heapsText(view.heaps)} · bouton`;
  else title = `${rulesName(view)} ${view.board.kind === 'fibonacci' ? view.board.heap : heapsText(view.heaps)} · bouton`;
  document.title = title;
}

export function renderControls(view) {
  const player = !!st.seat && view.mode !== 'demo';
  const playing = player && !view.over && !waitingForFriend(view);
  $('type-move').hidden = !playing;
  $('move-input').setAttribute('aria-disabled', canMove(view) ? 'false' : 'true');
  $('hint-button').hidden = !playing || !view.help;
  $('hint-button').setAttribute('aria-disabled', canMove(view) ? 'false' : 'true');
  const undoable = ['computer', 'computer-first', 'local'].includes(view.mode) && !!st.seat;
  $('undo').hidden = !undoable || view.over;
  $('undo').setAttribute('aria-disabled', !view.partial && !st.busy && undoTarget(view) ? 'false' : 'true');
  const demoOwner = view.mode === 'demo' && st.seat === 'both';
  $('demo-pause').hidden = !demoOwner || view.over;
  $('demo-pause').textContent = st.demoPaused ? 'Resume' : 'Pause';
  $('demo-pause').setAttribute('aria-pressed', st.demoPaused ? 'true' : 'false');
}

/** Whether this viewer has a move to take back. */
export function undoTarget(view) {
  if (view.over) return false;
  return view.moves.some((mv) => st.seat === 'both' || mv.side === st.seat);
}

function renderLog(view) {
  const [first, second] = names(view);
  if (!isNim(view)) {
    const items = view.moves.map((mv, i) =>
      h(
        'li',
        { class: `log-${mv.side}` },
        h('span', { class: 'log-move' }, playedText(mv.side === 'first' ? first : second, mv.description || mv.text)),
        h('span', { class: 'log-after' }, ` position: ${mv.after}${i === view.moves.length - 1 ? ' (latest move)' : ''}`),
      ),
    );
    $('log').replaceChildren(...items);
    $('log-empty').hidden = items.length > 0;
    return;
  }
  const heaps = view.start.slice();
  const items = view.moves.map((mv, i) => {
    heaps[mv.heap - 1] -= mv.take;
    const who = mv.side === 'first' ? first : second;
    return h(
      'li',
      { class: `log-${mv.side}` },
      h('span', { class: 'log-move' }, `${who} took ${mv.take} from heap ${mv.heap}`),
      h('span', { class: 'log-after' }, ` leaving ${heapsText(heaps)}${i === view.moves.length - 1 ? ' (latest move)' : ''}`),
    );
  });
  $('log').replaceChildren(...items);
  $('log-empty').hidden = items.length > 0;
}

/** The texts of the game screen that follow the rule set. */
function renderRulesTexts(view) {
  const nim = isNim(view);
  const summary = $('game-summary');
  summary.hidden = nim;
  if (nim) {
    if ($('move-help').dataset.rules !== 'nim') {
      $('move-help').innerHTML = NIM_TEXTS.moveHelp;
      $('move-help').dataset.rules = 'nim';
      $('move-input').setAttribute('placeholder', NIM_TEXTS.movePlaceholder);
      $('move-input').setAttribute('inputmode', 'numeric');
      $('explain-summary').textContent = NIM_TEXTS.explain;
      $('moves-summary').textContent = NIM_TEXTS.moves;
      $('board-help').textContent = NIM_TEXTS.boardHelp;
      $('board').setAttribute('aria-label', 'Heaps');
      delete $('board').dataset.kind;
    }
    return;
  }
  summary.textContent = `${capital(view.rules.summary)}.`;
  if ($('move-help').dataset.rules === view.rules.id) return;
  $('move-help').dataset.rules = view.rules.id;
  replace($('move-help'), moveHelpNodes(capital(view.rules.move_help)), '.');
  const example = /`([^`]*)`/.exec(view.rules.move_help || '');
  $('move-input').setAttribute('placeholder', example ? example[1] : '');
  $('move-input').setAttribute('inputmode', 'text');
  $('explain-summary').textContent = view.rules.kind === 'fibonacci' ? 'Explain: how to win' : 'Explain: Grundy values';
  $('moves-summary').textContent = 'Every legal move and the value it leaves';
  $('board-help').textContent =
    'Each token, coin, gap or square you may choose is a button. Tab moves between rows, arrow keys move along a row, Enter or Space chooses, choosing the same button again confirms, and Escape cancels.';
}
