// The browser game of bouton: setting up, playing, learning and watching Nim
// over the JSON API. Plain JavaScript, no build step.
'use strict';

(() => {
  const PRESETS = {
    '3-5-7': [3, 5, 7],
    '1-3-5-7': [1, 3, 5, 7],
    '1-5-4-2': [1, 5, 4, 2],
    '2-2-10-10': [2, 2, 10, 10],
    '11-12-15-25': [11, 12, 15, 25],
    '12-12-20-20': [12, 12, 20, 20],
  };
  const MAX_HEAPS = 12;
  const MAX_HEAP_SIZE = 50;
  const DEMO_INTERVAL = 1000;
  const MODE_LABELS = {
    computer: 'Against the computer',
    'computer-first': 'The computer first',
    local: 'Two players on this device',
    online: 'Online with a friend',
    demo: 'Computer vs computer',
  };
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

  const $ = (id) => document.getElementById(id);

  /** Creates an element with attributes and children. */
  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === 'class') node.className = value;
      else if (key === 'text') node.textContent = value;
      else node.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  /** Replaces an element's children, skipping empty ones. */
  function replace(node, ...children) {
    node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  }

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many || one + 's'}`;

  // ---------------------------------------------------------------- storage

  const store = {
    get(key) {
      try {
        const text = window.localStorage.getItem(key);
        return text ? JSON.parse(text) : null;
      } catch {
        return null;
      }
    },
    set(key, value) {
      try {
        window.localStorage.setItem(key, JSON.stringify(value));
      } catch {
        // Private browsing: the seat lasts as long as the page.
      }
    },
    remove(key) {
      try {
        window.localStorage.removeItem(key);
      } catch {
        // ignored
      }
    },
  };
  const seatKey = (id) => `bouton.seat.${id}`;

  // -------------------------------------------------------------------- API

  class ApiError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  async function api(method, path, body, token) {
    const headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    let response;
    try {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch {
      throw new ApiError(0, 'The server cannot be reached. Check your connection and try again.');
    }
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    if (!response.ok) {
      throw new ApiError(response.status, (data && data.error) || `The server answered ${response.status}.`);
    }
    return data;
  }

  // ------------------------------------------------------------------ state

  /** Everything that belongs to the game on screen, as it is with none. */
  function noGame() {
    return {
      id: null,
      token: null,
      seat: null, // "first", "second", "both" or null (watching)
      latest: null, // the newest state received
      shown: null, // the state on screen (maybe a step towards `latest`)
      selection: null, // { heap, take }, heap from 1
      cursor: [], // per heap: the token index (from 1) that Tab reaches
      nav: {}, // other rule sets: per line of the board, the key of the button Tab reaches
      events: null,
      demoTimer: null,
      demoPaused: false,
      analysisKey: null,
      hintFor: null,
      reviewFor: null,
    };
  }

  const st = {
    ...noGame(),
    pumping: false,
    busy: false,
    statsForVersion: null,
  };

  // ------------------------------------------------------------------ names

  /** The names of the first and second player as this viewer sees them. */
  function names(view) {
    const mine = st.seat === 'first' || st.seat === 'second';
    switch (view.mode) {
      case 'computer':
        return [mine ? 'You' : 'The player', 'The computer'];
      case 'computer-first':
        return ['The computer', mine ? 'You' : 'The player'];
      case 'online':
        if (st.seat === 'first') return ['You', 'Your friend'];
        if (st.seat === 'second') return ['Your friend', 'You'];
        return ['Player 1', 'Player 2'];
      case 'demo':
        return ['Computer 1', 'Computer 2'];
      default:
        return ['Player 1', 'Player 2'];
    }
  }
  const sideIndex = (side) => (side === 'first' ? 0 : 1);
  const nameOf = (view, side) => names(view)[sideIndex(side)];
  /** "You", "The computer" in the middle of a sentence. */
  const midName = (name) => (name === 'You' || /^(Player|Computer) /.test(name) ? name : name.charAt(0).toLowerCase() + name.slice(1));
  const possessive = (name) => (name === 'You' ? 'Your' : `${name}’s`);
  const winsText = (name) => (name === 'You' ? 'You win!' : `${name} wins!`);
  const moveText = (view, mv) =>
    isNim(view) || !mv.description
      ? `${nameOf(view, mv.side)} took ${mv.take} from heap ${mv.heap}.`
      : `${playedText(nameOf(view, mv.side), mv.description)}.`;
  const heapsText = (heaps) => heaps.join(' ');
  const ruleSentence = (misere) =>
    misere ? 'Misère: whoever takes the last token loses.' : 'Normal: whoever takes the last token wins.';

  function seatKind(view, side) {
    return view.seats[sideIndex(side)].kind;
  }

  function waitingForFriend(view) {
    return view.mode === 'online' && !view.seats[1].taken;
  }

  /** Whether this viewer may move in `view` now. */
  function canMove(view) {
    if (!view || view.over || !view.to_move || view.partial) return false;
    if (!(st.seat === 'both' || st.seat === view.to_move)) return false;
    if (seatKind(view, view.to_move) !== 'human') return false;
    return !waitingForFriend(view);
  }

  /** The state after the first `n` moves of `view`. */
  function stepOf(view, n) {
    if (n === view.ply) return view;
    if (!isNim(view)) return otherStepOf(view, n) || view;
    const heaps = view.start.slice();
    for (const mv of view.moves.slice(0, n)) heaps[mv.heap - 1] -= mv.take;
    return {
      ...view,
      heaps,
      moves: view.moves.slice(0, n),
      ply: n,
      to_move: n % 2 === 0 ? 'first' : 'second',
      over: false,
      winner: null,
      partial: true,
    };
  }

  const sameMove = (a, b) => a.heap === b.heap && a.take === b.take && a.side === b.side && a.text === b.text;
  const extends_ = (longer, shorter) => shorter.every((mv, i) => longer[i] && sameMove(mv, longer[i]));

  // -------------------------------------------------------------- announcer

  let announceTimer = null;
  function announce(text) {
    const live = $('live');
    clearTimeout(announceTimer);
    live.textContent = '';
    // A fresh text node after a tick is read even when it repeats the last.
    announceTimer = setTimeout(() => {
      live.textContent = text;
    }, 60);
  }

  function showError(where, message) {
    $(where).textContent = message || '';
  }

  // ------------------------------------------------------------------ setup

  function readSetup() {
    const form = $('setup-form');
    const choice = form.elements.heaps.value;
    const entry = chosenEntry();
    if (entry.family !== 'nim') return readOtherSetup(form, choice, entry);
    let heaps;
    if (choice === 'custom') {
      heaps = parseHeaps($('custom-heaps').value);
    } else if (choice === 'random') {
      const count = 3 + Math.floor(Math.random() * 3);
      heaps = Array.from({ length: count }, () => 1 + Math.floor(Math.random() * 10));
    } else {
      heaps = PRESETS[choice];
    }
    const mode = form.elements.mode.value;
    const request = { heaps, misere: form.elements.rule.value === 'misere', mode };
    if (['computer', 'computer-first', 'demo'].includes(mode)) request.level = $('level').value;
    return request;
  }

  function parseHeaps(text) {
    const parts = text.trim().split(/[\s,;:+-]+/).filter(Boolean);
    if (parts.length === 0) throw new Error('Type the custom heaps, like 4 6 9.');
    if (parts.length > MAX_HEAPS) throw new Error(`A game has at most ${MAX_HEAPS} heaps.`);
    const heaps = parts.map((part) => {
      if (!/^\d+$/.test(part)) throw new Error(`“${part}” is not a number of tokens.`);
      const n = Number(part);
      if (n > MAX_HEAP_SIZE) throw new Error(`A heap holds at most ${MAX_HEAP_SIZE} tokens, not ${n}.`);
      return n;
    });
    if (heaps.every((n) => n === 0)) throw new Error('At least one heap needs a token.');
    return heaps;
  }

  function saveSetup() {
    const form = $('setup-form');
    rememberRulesFields();
    store.set('bouton.setup', {
      heaps: form.elements.heaps.value,
      custom: setupMemory.customs.nim || '',
      rule: form.elements.rule.value,
      mode: form.elements.mode.value,
      level: $('level').value,
      rules: $('rules').value,
      params: setupMemory.params,
      customs: setupMemory.customs,
    });
  }

  function restoreSetup() {
    const saved = store.get('bouton.setup');
    if (!saved) return;
    const form = $('setup-form');
    const pick = (name, value) => {
      const input = [...form.elements[name]].find((i) => i.value === value);
      if (input) input.checked = true;
    };
    pick('heaps', saved.heaps);
    pick('rule', saved.rule);
    pick('mode', saved.mode);
    if (typeof saved.custom === 'string') $('custom-heaps').value = saved.custom;
    if ([...$('level').options].some((o) => o.value === saved.level)) $('level').value = saved.level;
    if (saved.params && typeof saved.params === 'object') Object.assign(setupMemory.params, saved.params);
    if (saved.customs && typeof saved.customs === 'object') Object.assign(setupMemory.customs, saved.customs);
    if (typeof saved.custom === 'string') setupMemory.customs.nim = saved.custom;
    if (typeof saved.rules === 'string') {
      $('rules').dataset.wanted = saved.rules;
      if (saved.heaps) $('rules').dataset.wantedHeaps = saved.heaps;
    }
  }

  function updateLevelField() {
    const mode = $('setup-form').elements.mode.value;
    $('level-field').hidden = mode === 'local' || mode === 'online';
  }

  async function createGame(request) {
    const grant = await api('POST', '/api/games', request);
    store.set(seatKey(grant.game.id), { token: grant.token, seat: grant.seat });
    history.pushState({ game: grant.game.id }, '', grant.link);
    openGame(grant.game.id, { view: grant.game, token: grant.token, seat: grant.seat, focus: true });
  }

  async function onSetupSubmit(event) {
    event.preventDefault();
    showError('setup-error', '');
    let request;
    showError('param-error', '');
    try {
      request = readSetup();
    } catch (e) {
      showError(e.field === 'param' ? 'param-error' : 'setup-error', e.message);
      $(e.field === 'param' ? 'rules-param' : 'custom-heaps').focus();
      return;
    }
    saveSetup();
    const button = $('start');
    button.setAttribute('aria-busy', 'true');
    try {
      await createGame(request);
    } catch (e) {
      showError('setup-error', e.message);
      if (request.rules && request.rules.includes(':') && e.status === 400 && aboutRules(e.message, request.rules)) {
        showError('param-error', e.message);
      }
    } finally {
      button.removeAttribute('aria-busy');
    }
  }

  // ------------------------------------------------------ the rule set choice

  /** The rule sets from GET /api/rules; Nim alone until they arrive. */
  let catalogue = [
    { id: 'nim', family: 'nim', parameter: null, name: 'Nim', summary: '', position: 'heap sizes', start: [3, 5, 7], kind: 'heaps' },
  ];
  /** Per rule set family: the parameter and custom start typed last. */
  const setupMemory = { params: {}, customs: {} };

  /** The texts of the Nim page, read from the HTML, to put back. */
  const NIM_TEXTS = {
    read() {
      this.title = $('setup-title').textContent;
      this.lead = $('setup').querySelector('.lead').innerHTML;
      this.customName = $('custom-name').textContent;
      this.customHelp = $('custom-help').textContent;
      this.placeholder = $('custom-heaps').getAttribute('placeholder');
      this.normal = $('setup-form').querySelector('input[name=rule][value=normal] + span').innerHTML;
      this.misere = $('setup-form').querySelector('input[name=rule][value=misere] + span').innerHTML;
      this.moveHelp = $('move-help').innerHTML;
      this.movePlaceholder = $('move-input').getAttribute('placeholder');
      this.explain = $('explain-summary').textContent;
      this.moves = $('moves-summary').textContent;
      this.boardHelp = $('board-help').textContent;
    },
  };

  const rulesLabel = (id) => {
    const [family, parameter] = String(id).split(/:(.*)/);
    const label = FAMILY_LABELS[family] || capital(family);
    return parameter ? `${label} ${parameter}` : label;
  };

  function chosenEntry() {
    const family = $('rules').value;
    return catalogue.find((e) => e.family === family) || catalogue[0];
  }

  async function loadCatalogue() {
    let data;
    try {
      data = await api('GET', '/api/rules');
    } catch {
      return; // Nim alone
    }
    if (!data || !Array.isArray(data.rules) || !data.rules.some((e) => e.family === 'nim')) return;
    catalogue = data.rules;
    const select = $('rules');
    const wanted = select.dataset.wanted || select.value;
    select.replaceChildren(...catalogue.map((e) => h('option', { value: e.family }, FAMILY_LABELS[e.family] || capital(e.name))));
    select.value = catalogue.some((e) => e.family === wanted) ? wanted : 'nim';
    delete select.dataset.wanted;
    updateRulesFields(false);
    const heaps = select.dataset.wantedHeaps;
    delete select.dataset.wantedHeaps;
    if (heaps === 'custom' && $('custom-heaps').value.trim()) $('heaps-custom-radio').checked = true;
  }

  /** Keeps the fields of the rule set shown, before another is shown. */
  function rememberRulesFields() {
    const shown = $('rules').dataset.shown || 'nim';
    setupMemory.customs[shown] = $('custom-heaps').value;
    const entry = catalogue.find((e) => e.family === shown);
    if (entry && entry.parameter !== null && entry.parameter !== undefined) setupMemory.params[shown] = $('rules-param').value;
  }

  /** A text of the catalogue (made for the example parameter) for the parameter typed. */
  function withParameter(text, entry, param) {
    if (!text || !entry.parameter || !param || param === entry.parameter) return text;
    const typed = param.split(',').map((p) => p.trim()).filter(Boolean);
    const forms = [entry.parameter.split(',').join(', '), entry.parameter];
    for (const form of forms) {
      if (text.includes(form)) return text.split(form).join(form.includes(', ') ? typed.join(', ') : typed.join(','));
    }
    return text;
  }

  /** Shows the setup fields of the rule set chosen. */
  function updateRulesFields(changed) {
    const select = $('rules');
    const entry = chosenEntry();
    const nim = entry.family === 'nim';
    const form = $('setup-form');
    if (select.dataset.shown !== entry.family) {
      if (select.dataset.shown) rememberRulesFields();
      select.dataset.shown = entry.family;
      $('custom-heaps').value = setupMemory.customs[entry.family] || '';
      $('rules-param').value = setupMemory.params[entry.family] || entry.parameter || '';
      if (changed || !form.elements.heaps.value) {
        const custom = $('custom-heaps').value.trim() !== '';
        const fallback = nim ? '3-5-7' : 'standard';
        const value = custom ? 'custom' : fallback;
        const radio = [...form.elements.heaps].find((i) => i.value === value);
        if (radio) radio.checked = true;
      }
    }
    const choice = form.elements.heaps.value;
    if (nim && choice === 'standard') $('setup-form').querySelector('input[name=heaps][value="3-5-7"]').checked = true;
    if (!nim && choice !== 'custom' && choice !== 'standard') $('heaps-standard-radio').checked = true;

    const hasParam = entry.parameter !== null && entry.parameter !== undefined;
    const param = $('rules-param').value.trim();
    $('param-row').hidden = !hasParam;
    if (hasParam) {
      const [label, help] = PARAM_TEXT[entry.family] || ['Parameter', `Like ${entry.parameter}.`];
      $('param-label').textContent = label;
      $('param-help').textContent = help;
      $('rules-param').setAttribute('placeholder', entry.parameter);
    }
    for (const id of ['nim-presets', 'ggp-note', 'ggp-presets']) $(id).hidden = !nim;
    $('standard-chips').hidden = nim;
    $('heaps-legend').textContent = nim ? 'Heaps' : 'Start position';
    $('standard-text').textContent = `Standard: ${entry.start.join(' ')}`;
    const name = withParameter(entry.name, entry, param);
    const summary = withParameter(entry.summary, entry, param);
    $('rules-summary').textContent = nim || !entry.position ? '' : `A position is written as ${entry.position}.`;
    const normal = form.querySelector('input[name=rule][value=normal] + span');
    const misere = form.querySelector('input[name=rule][value=misere] + span');
    const lead = $('setup').querySelector('.lead');
    if (nim) {
      $('setup-title').textContent = NIM_TEXTS.title;
      lead.innerHTML = NIM_TEXTS.lead;
      $('custom-name').textContent = NIM_TEXTS.customName;
      $('custom-help').textContent = NIM_TEXTS.customHelp;
      $('custom-heaps').setAttribute('placeholder', NIM_TEXTS.placeholder);
      normal.innerHTML = NIM_TEXTS.normal;
      misere.innerHTML = NIM_TEXTS.misere;
    } else {
      $('setup-title').textContent = `Play ${name}`;
      lead.textContent = summary ? `${capital(summary)}.` : '';
      const unit = UNITS[entry.kind] || 'parts';
      const position = entry.position || 'numbers';
      $('custom-name').textContent = `Custom start: ${position}, separated by spaces`;
      $('custom-help').textContent = entry.kind === 'fibonacci'
        ? `Custom start: ${position}, up to 50 tokens.`
        : `Custom start: ${position}, separated by spaces; at most 12 ${unit}, numbers up to 50${entry.kind === 'rows' ? ', widths up to 20' : ''}.`;
      $('custom-heaps').setAttribute('placeholder', `e.g. ${entry.start.join(' ')}`);
      normal.replaceChildren(h('strong', {}, 'Normal:'), ' whoever makes the last move wins');
      misere.replaceChildren(h('strong', {}, 'Misère:'), ' whoever makes the last move loses');
    }
    if (!$('setup').hidden) document.title = nim ? 'bouton: play Nim' : `bouton: play ${FAMILY_LABELS[entry.family] || capital(name)}`;
  }

  function setupError(field, message) {
    const error = new Error(message);
    error.field = field;
    return error;
  }

  function readOtherSetup(form, choice, entry) {
    let rules = entry.family;
    if (entry.parameter !== null && entry.parameter !== undefined) {
      const param = $('rules-param').value.trim().replace(/\s*,\s*/g, ',').replace(/\s+/g, ',');
      if (!param) throw setupError('param', `Type the parameter, like ${entry.parameter}.`);
      rules = `${entry.family}:${param}`;
    }
    let position;
    if (choice === 'custom') {
      const parts = $('custom-heaps').value.trim().split(/[\s,;]+/).filter(Boolean);
      if (!parts.length) throw setupError('custom', `Type the start, like ${entry.start.join(' ')}.`);
      position = parts.map((part) => {
        if (!/^\d+$/.test(part)) throw setupError('custom', `“${part}” is not a whole number.`);
        const n = Number(part);
        if (n > MAX_HEAP_SIZE) throw setupError('custom', `Numbers go up to ${MAX_HEAP_SIZE}, not ${n}.`);
        return n;
      });
    } else {
      position = entry.start.slice();
    }
    const mode = form.elements.mode.value;
    const request = { rules, position, misere: form.elements.rule.value === 'misere', mode };
    if (['computer', 'computer-first', 'demo'].includes(mode)) request.level = $('level').value;
    return request;
  }

  /** Whether a 400 answer is about the rule set rather than the start. */
  function aboutRules(message, rules) {
    const [family, parameter] = rules.split(/:(.*)/);
    const text = message.toLowerCase();
    return text.includes(rules.toLowerCase()) || (parameter && text.includes(parameter.toLowerCase())) ||
      /rule set|unknown rules|parameter|octal|code/.test(text) || text.includes(family);
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

  // ------------------------------------------------------------- navigation

  function leaveGame() {
    if (st.events) st.events.close();
    clearTimeout(st.demoTimer);
    Object.assign(st, noGame());
  }

  function showSetup(focus) {
    leaveGame();
    document.title = 'bouton: play Nim';
    $('game').hidden = true;
    $('setup').hidden = false;
    updateLevelField();
    updateRulesFields(false);
    loadStats();
    if (focus) $('setup-title').focus();
  }

  function route(focus) {
    const match = /^\/g\/([A-Za-z0-9_-]+)\/?$/.exec(window.location.pathname);
    if (match) openGame(match[1], { focus });
    else showSetup(focus);
  }

  function navigateHome(event) {
    if (event) event.preventDefault();
    if (window.location.pathname !== '/') history.pushState({}, '', '/');
    showSetup(true);
  }

  // ------------------------------------------------------------------- game

  async function openGame(id, options = {}) {
    leaveGame();
    st.id = id;
    $('setup').hidden = true;
    $('game').hidden = false;
    $('game-error').textContent = '';
    $('board').replaceChildren();
    $('game-title').textContent = 'Loading the game…';
    const parts = ['share', 'join-box', 'watch-note', 'result', 'review', 'hint', 'connection', 'last-move',
      'selection-bar', 'type-move', 'hint-button', 'undo', 'demo-pause', 'learn'];
    for (const part of parts) $(part).hidden = true;
    for (const part of ['players', 'log']) $(part).replaceChildren();
    $('status').textContent = '';
    $('game-meta').textContent = '';
    let view = options.view;
    if (options.token) {
      st.token = options.token;
      st.seat = options.seat;
    } else {
      const saved = store.get(seatKey(id));
      if (saved && saved.token) st.token = saved.token;
    }
    if (!view) {
      try {
        view = await api('GET', `/api/games/${encodeURIComponent(id)}`, undefined, st.token);
      } catch (e) {
        if (st.id !== id) return;
        $('game-title').textContent = 'Game not found';
        $('game-meta').textContent = '';
        showError('game-error', e.message);
        return;
      }
      if (st.id !== id) return;
      st.seat = view.your_seat;
      if (st.token && !st.seat) {
        // A stale token: this browser no longer holds a seat.
        store.remove(seatKey(id));
        st.token = null;
      }
    }
    receive(view);
    connect(id);
    if (options.focus) $('game-title').focus();
  }

  function connect(id) {
    if (!('EventSource' in window)) return;
    const events = new EventSource(`/api/games/${encodeURIComponent(id)}/events`);
    st.events = events;
    events.addEventListener('state', (event) => {
      try {
        receive(JSON.parse(event.data));
      } catch {
        // A malformed event: the next one will do.
      }
    });
    events.addEventListener('open', () => {
      $('connection').hidden = true;
    });
    events.addEventListener('error', () => {
      if (st.events !== events) return;
      if (events.readyState === EventSource.CLOSED) {
        $('connection').textContent = 'Live updates stopped. Reload the page to see new moves.';
      } else {
        $('connection').textContent = 'Connection lost: reconnecting…';
      }
      $('connection').hidden = st.latest ? st.latest.over : false;
    });
  }

  /** Takes a state from the server (an answer or an event). */
  function receive(view) {
    if (!view || view.id !== st.id) return;
    if (st.latest && view.version <= st.latest.version) return;
    st.latest = view;
    pump();
  }

  /** Brings the screen to the latest state, one move at a time, pausing
   * before the computer's moves so that they can be seen. */
  async function pump() {
    if (st.pumping) return;
    st.pumping = true;
    try {
      while (st.latest && st.shown !== st.latest) {
        const target = st.latest;
        const shown = st.shown;
        if (shown && target.ply > shown.ply && extends_(target.moves, shown.moves)) {
          for (let n = shown.ply + 1; n <= target.ply; n += 1) {
            const mv = target.moves[n - 1];
            if (mv.by === 'computer' && target.mode !== 'demo') {
              await sleep(reducedMotion.matches ? 250 : 700);
            }
            if (st.latest !== target) break;
            render(stepOf(target, n), { moved: true });
            announce(moveText(target, mv) + followUp(stepOf(target, n)));
          }
        } else {
          const undone = shown && target.ply < shown.ply;
          render(target, { moved: false });
          if (undone) {
            announce(`Moves taken back. ${statusText(target)}`);
          } else if (!shown) {
            const last = target.moves[target.ply - 1];
            announce((last ? moveText(target, last) + ' ' : '') + statusText(target));
          }
        }
      }
    } finally {
      st.pumping = false;
    }
    scheduleDemo();
  }

  function followUp(view) {
    if (view.over) return ' ' + resultText(view).join(' ');
    if (canMove(view)) return ` ${statusText(view)}`;
    return '';
  }

  function statusText(view) {
    if (view.over) return resultText(view)[0];
    const mover = nameOf(view, view.to_move);
    if (waitingForFriend(view)) {
      return st.seat === 'first' ? 'Waiting for your friend to join.' : 'Waiting for a second player to join.';
    }
    if (canMove(view)) return mover === 'You' ? 'Your turn.' : `${mover}: your turn.`;
    if (seatKind(view, view.to_move) === 'computer') {
      return view.mode === 'demo' ? `${mover} to move.` : 'The computer is thinking…';
    }
    if (!st.seat) return `${mover} to move.`;
    return mover === 'Your friend' ? 'Your friend’s turn: waiting for their move.' : `${mover} to move.`;
  }

  /** [headline, explanation] of a finished game. */
  function resultText(view) {
    const winner = nameOf(view, view.winner);
    const last = view.moves[view.moves.length - 1];
    const taker = last ? nameOf(view, last.side) : winner;
    const detail = isNim(view)
      ? `${taker} took the last token. ${ruleSentence(view.misere)}`
      : `${taker} made the last move. ${view.misere ? 'Misère' : 'Normal'}: ${view.rule}.`;
    return [winsText(winner), detail];
  }

  // ---------------------------------------------------------------- drawing

  function render(view, { moved }) {
    const previous = st.shown;
    st.shown = view;
    if (!previous || previous.ply !== view.ply || previous.heaps.join() !== view.heaps.join()) {
      st.selection = null;
    }
    $('learn').hidden = false;
    renderHead(view);
    renderPlayers(view);
    renderStatus(view);
    if (isNim(view)) renderBoard(view, moved);
    else renderOtherBoard(view, moved);
    renderSelection();
    renderControls(view);
    renderLog(view);
    if (st.hintFor !== `${view.id}:${view.ply}`) $('hint').hidden = true;
    if ($('explain').open || $('moves-panel').open) loadAnalysis(view);
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

  function cursorFor(heap, size) {
    const c = st.cursor[heap];
    if (!c || c > size) return size;
    return c;
  }

  function tokenLabel(heapNo, index, size) {
    return `Heap ${heapNo}, token ${index} of ${size}: take ${size - index + 1}`;
  }

  function renderBoard(view, moved) {
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
  function focusToken(heapNo, index) {
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

  function renderSelection() {
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

  function renderControls(view) {
    const player = !!st.seat && view.mode !== 'demo';
    const playing = player && !view.over && !waitingForFriend(view);
    $('type-move').hidden = !playing;
    $('move-input').setAttribute('aria-disabled', canMove(view) ? 'false' : 'true');
    $('hint-button').hidden = !playing;
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
  function undoTarget(view) {
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

  // ----------------------------------------------------------------- moving

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

  function cancelSelection() {
    if (!st.selection) return false;
    st.selection = null;
    renderSelection();
    announce('Choice cancelled.');
    return true;
  }

  function confirmSelection() {
    const sel = st.selection;
    if (!sel || !canMove(st.shown)) return;
    if (sel.move !== undefined) playText(sel.move);
    else play(sel.heap, sel.take);
  }

  async function play(heap, take) {
    const view = st.latest;
    if (!canMove(view) || st.busy || st.shown !== view) {
      announce('Please wait for your turn.');
      return;
    }
    await send(`/api/games/${view.id}/moves`, { heap, take, ply: view.ply }, () => {
      st.selection = null;
    });
  }

  /**
   * Sends a seat holder's action and shows the new state; on a conflict
   * (the game moved on) reloads it. `onSuccess` runs before the new state is
   * shown.
   */
  async function send(path, body, onSuccess) {
    st.busy = true;
    showError('game-error', '');
    try {
      const next = await api('POST', path, body, st.token);
      if (onSuccess) onSuccess();
      receive(next);
    } catch (e) {
      showError('game-error', e.message);
      if (e.status === 409) refresh();
    } finally {
      st.busy = false;
      if (st.shown) renderControls(st.shown);
    }
  }

  async function refresh() {
    if (!st.id) return;
    try {
      receive(await api('GET', `/api/games/${st.id}`, undefined, st.token));
    } catch {
      // The error shown already says what happened.
    }
  }

  async function onTypedMove(event) {
    event.preventDefault();
    const view = st.shown;
    const text = $('move-input').value;
    if (!isNim(view)) {
      if (!text.trim()) {
        showError('game-error', `Type a move: ${view.rules.move_help.replace(/`/g, '')}.`);
        return;
      }
      if (!canMove(view)) {
        showError('game-error', 'It is not your turn.');
        return;
      }
      if (await playText(text.trim())) $('move-input').value = '';
      return;
    }
    const match = /^\s*(\d+)\s*(?:[:,/]\s*|\s+)(\d+)\s*$/.exec(text);
    if (!match) {
      showError('game-error', 'Type the heap and how many to take, like “2 3” or “2:3”.');
      return;
    }
    const heap = Number(match[1]);
    const take = Number(match[2]);
    if (!canMove(view)) {
      showError('game-error', 'It is not your turn.');
      return;
    }
    if (heap < 1 || heap > view.heaps.length) {
      showError('game-error', `There is no heap ${heap}: the heaps are numbered 1 to ${view.heaps.length}.`);
      return;
    }
    const size = view.heaps[heap - 1];
    if (take < 1 || take > size) {
      showError(
        'game-error',
        size === 0 ? `Heap ${heap} is empty.` : `Take between 1 and ${size} from heap ${heap}.`,
      );
      return;
    }
    $('move-input').value = '';
    play(heap, take);
  }

  async function undo() {
    const view = st.latest;
    if (!view || st.busy || !undoTarget(view) || st.shown !== view) return;
    await send(`/api/games/${view.id}/undo`, { ply: view.ply });
  }

  function onBoardClick(event) {
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

  function onBoardKey(event) {
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

  // ------------------------------------------------------------------- demo

  function scheduleDemo() {
    clearTimeout(st.demoTimer);
    st.demoTimer = null;
    const view = st.latest;
    if (!view || view.mode !== 'demo' || st.seat !== 'both' || view.over || st.demoPaused) return;
    const id = view.id;
    st.demoTimer = setTimeout(async () => {
      const now = st.latest;
      if (st.id !== id || !now || now.over || st.demoPaused) return;
      try {
        receive(await api('POST', `/api/games/${id}/step`, { ply: now.ply }, st.token));
      } catch (e) {
        if (st.id !== id) return;
        if (e.status === 409) await refresh();
        else showError('game-error', e.message);
      }
      scheduleDemo();
    }, DEMO_INTERVAL);
  }

  // ------------------------------------------------------------------ learn

  function moveName(mv) {
    return `take ${mv.take} from heap ${mv.heap}`;
  }

  async function showHint() {
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

  async function loadAnalysis(view) {
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

  function renderOptions(analysis, view) {
    const body = $('moves-body');
    if (!analysis.moves) {
      body.replaceChildren(h('p', {}, 'There are too many moves to list here.'));
      return;
    }
    if (analysis.moves.length === 0) {
      body.replaceChildren(h('p', {}, 'No moves are left: the game is over.'));
      return;
    }
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

  async function loadReview(view) {
    const key = `${view.id}:${view.version}`;
    if (st.reviewFor === key) return;
    st.reviewFor = key;
    let review;
    try {
      review = await api('GET', `/api/games/${view.id}/review`);
    } catch (e) {
      st.reviewFor = null;
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

  // ------------------------------------------------------------------ stats

  async function loadStats() {
    let data;
    try {
      data = await api('GET', '/api/stats');
    } catch (e) {
      $('stats-body').replaceChildren(h('p', {}, e.message));
      return;
    }
    const rows = data.rows || [];
    if (rows.length === 0) {
      $('stats-body').replaceChildren(h('p', {}, 'No finished games yet.'));
      return;
    }
    const order = Object.keys(MODE_LABELS);
    const levels = ['random', 'beginner', 'easy', 'medium', 'hard', 'perfect'];
    const withRules = rows.some((r) => r.rules !== undefined && r.rules !== null);
    const rulesOf = (r) => (r.rules === undefined || r.rules === null ? 'nim' : String(r.rules));
    rows.sort(
      (a, b) =>
        (rulesOf(a) === rulesOf(b) ? 0 : rulesOf(a) === 'nim' ? -1 : rulesOf(b) === 'nim' ? 1 : rulesOf(a) < rulesOf(b) ? -1 : 1) ||
        order.indexOf(a.mode) - order.indexOf(b.mode) || levels.indexOf(a.level) - levels.indexOf(b.level),
    );
    $('stats-body').replaceChildren(
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'stats-table' },
          h('caption', { class: 'visually-hidden' }, 'Finished games per mode and level'),
          h(
            'thead',
            {},
            h('tr', {}, [...(withRules ? ['Game'] : []), 'Mode', 'Level', 'Games', 'Wins', 'Losses'].map((t) => h('th', { scope: 'col' }, t))),
          ),
          h(
            'tbody',
            {},
            rows.map((r) =>
              h(
                'tr',
                {},
                withRules ? h('td', { class: 'stats-rules' }, rulesLabel(rulesOf(r))) : null,
                h('th', { scope: 'row' }, MODE_LABELS[r.mode] || r.mode),
                h('td', {}, r.level || '—'),
                h('td', {}, String(r.games)),
                h('td', {}, String(r.wins)),
                h('td', {}, String(r.losses)),
              ),
            ),
          ),
        ),
      ),
    );
  }

  // ------------------------------------------------------- other rule sets
  //
  // Everything below is for rule sets other than Nim (view.rules.id !==
  // 'nim'): the server sends the board (view.board), each move's text,
  // description and the position after it; the page builds move texts
  // such as "1 2 3" from clicks and sends {"move": text, "ply": n}.

  const FAMILY_LABELS = {
    nim: 'Nim',
    subtraction: 'Subtraction game',
    'all-but': 'All-but subtraction game',
    'take-limit': 'Nim with a take limit',
    moore: 'Moore’s Nim (from k heaps at once)',
    wythoff: 'Wythoff’s game',
    kayles: 'Kayles',
    'dawsons-kayles': 'Dawson’s Kayles',
    octal: 'Octal game',
    grundy: 'Grundy’s game',
    lasker: 'Lasker’s Nim',
    staircase: 'Staircase Nim',
    northcott: 'Northcott’s game',
    fibonacci: 'Fibonacci Nim',
  };
  const PARAM_TEXT = {
    subtraction: ['The amounts one may take', 'Numbers separated by commas, like 1,2,5.'],
    'all-but': ['The amounts one may not take', 'Numbers separated by commas, like 1,2.'],
    'take-limit': ['The most one may take at once', 'A number, like 3.'],
    moore: ['k: from how many heaps at once', 'A number from 1 to 8, like 2.'],
    octal: ['The octal code', 'A code such as 0.137, 0.07 or 4.07.'],
  };
  const UNITS = { heaps: 'heaps', pairs: 'pairs', stairs: 'steps', rows: 'rows', fibonacci: 'heap' };
  const BOARD_LABELS = { heaps: 'Heaps', pairs: 'Pairs of piles', stairs: 'Staircase', rows: 'Rows of the board', fibonacci: 'The heap' };

  const isNim = (view) => !view || !view.rules || view.rules.id === 'nim';
  const capital = (text) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : '');
  const rulesName = (view) => capital(view.rules.name);
  const numbersIn = (text) => (String(text).match(/\d+/g) || []).map(Number);
  const chunks = (list, n) => Array.from({ length: Math.floor(list.length / n) }, (_, i) => list.slice(i * n, i * n + n));
  const PAST = { take: 'took', move: 'moved', split: 'split', knock: 'knocked' };

  /** "You took 2 from heap 1, leaving 3 and 3." from a move's description. */
  function playedText(name, description) {
    const m = /^(\w+)(.*)$/.exec(description || '');
    if (m && PAST[m[1]]) return `${name} ${PAST[m[1]]}${m[2]}`;
    return `${name}: ${description}`;
  }

  /** The board of `numbers` (the rule set's number form) after `ply` moves. */
  function boardOf(kind, numbers, ply) {
    switch (kind) {
      case 'heaps':
        return { kind, heaps: numbers.slice() };
      case 'pairs':
        return numbers.length % 2 ? null : { kind, pairs: chunks(numbers, 2) };
      case 'stairs':
        return { kind, steps: numbers.slice() };
      case 'rows':
        return numbers.length % 3
          ? null
          : { kind, white_to_move: ply % 2 === 0, rows: chunks(numbers, 3).map(([width, white, black]) => ({ width, white, black })) };
      case 'fibonacci': {
        if (!numbers.length) return null;
        const heap = numbers[0];
        const limit = numbers.length > 1 ? numbers[1] : Math.max(0, heap - 1);
        return { kind, heap, max_take: Math.min(limit, heap) };
      }
      default:
        return null;
    }
  }

  /** The position's numbers after the first `n` moves of `view`. */
  function numbersAt(view, n) {
    if (n === 0) return view.start.slice();
    const mv = view.moves[n - 1];
    return mv && mv.after !== undefined ? numbersIn(mv.after) : null;
  }

  /** stepOf for the other rule sets: the board rebuilt from the move's "after". */
  function otherStepOf(view, n) {
    const numbers = numbersAt(view, n);
    const board = numbers && boardOf(view.board.kind, numbers, n);
    if (!board) return null;
    return {
      ...view,
      heaps: numbers,
      board,
      moves: view.moves.slice(0, n),
      ply: n,
      to_move: n % 2 === 0 ? 'first' : 'second',
      over: false,
      winner: null,
      partial: true,
    };
  }

  /** The board before the last move of `view`, to mark what it changed. */
  function boardBefore(view) {
    if (!view.ply) return null;
    const numbers = numbersAt(view, view.ply - 1);
    const board = numbers && boardOf(view.board.kind, numbers, view.ply - 1);
    return board && board.kind === view.board.kind ? board : null;
  }

  /** Whose piece is whose in Northcott's game: White is the first player. */
  const pieceName = (white) => (white ? 'White' : 'Black');

  // ----------------------------------------------------------- the boards

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

  function renderOtherBoard(view, moved) {
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

  function focusNav(button) {
    const line = button.closest('.line');
    if (line) {
      for (const b of line.querySelectorAll('button[data-key]')) b.tabIndex = -1;
      st.nav[line.dataset.line] = button.dataset.key;
    }
    button.tabIndex = 0;
    button.focus();
  }

  function onOtherKey(event) {
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

  // -------------------------------------------------------- choosing moves

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
  function describePick(view, pick) {
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
  function pickOfMove(view, text) {
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

  function renderOtherSelection(view) {
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

  function chooseOther(button) {
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

  async function playText(text) {
    const view = st.latest;
    if (!canMove(view) || st.busy || st.shown !== view) {
      announce('Please wait for your turn.');
      return false;
    }
    let ok = false;
    await send(`/api/games/${view.id}/moves`, { move: text, ply: view.ply }, () => {
      st.selection = null;
      ok = true;
    });
    return ok;
  }

  /** The typed-move help of a rule set: `3 2` examples become keys. */
  function moveHelpNodes(help) {
    return String(help || '')
      .split(/`([^`]*)`/)
      .map((part, i) => (i % 2 ? h('kbd', {}, part) : part));
  }

  // ----------------------------------------------------------- learning

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
    const body = $('moves-body');
    if (!analysis.moves) {
      body.replaceChildren(h('p', {}, 'There are too many moves to list here.'));
      return;
    }
    if (analysis.moves.length === 0) {
      body.replaceChildren(h('p', {}, 'No moves are left: the game is over.'));
      return;
    }
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

  // ------------------------------------------------------------------ wiring

  async function join() {
    const id = st.id;
    const button = $('join');
    button.setAttribute('aria-busy', 'true');
    try {
      const grant = await api('POST', `/api/games/${id}/join`);
      store.set(seatKey(id), { token: grant.token, seat: grant.seat });
      st.token = grant.token;
      st.seat = grant.seat;
      st.shown = null; // redraw everything for the new seat
      st.latest = null;
      receive(grant.game);
      $('game-title').focus();
    } catch (e) {
      showError('game-error', e.status === 409 ? `${e.message}.` : e.message);
      refresh();
    } finally {
      button.removeAttribute('aria-busy');
    }
  }

  async function copyLink() {
    const input = $('share-link');
    let copied = false;
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(input.value);
        copied = true;
      }
    } catch {
      copied = false;
    }
    if (!copied) {
      input.focus();
      input.select();
      try {
        copied = document.execCommand('copy');
      } catch {
        copied = false;
      }
    }
    const text = copied ? 'Link copied.' : 'Select the link and copy it.';
    $('copy-link').textContent = copied ? 'Copied ✓' : 'Copy link';
    setTimeout(() => {
      $('copy-link').textContent = 'Copy link';
    }, 2500);
    announce(text);
  }

  async function playAgain() {
    const view = st.shown;
    if (!view) return;
    const request = isNim(view)
      ? { heaps: view.start, misere: view.misere, mode: view.mode }
      : { rules: view.rules.id, position: view.start, misere: view.misere, mode: view.mode };
    if (view.level) request.level = view.level;
    try {
      await createGame(request);
    } catch (e) {
      showError('game-error', e.message);
    }
  }

  function init() {
    NIM_TEXTS.read();
    restoreSetup();
    $('rules').addEventListener('change', () => {
      showError('param-error', '');
      updateRulesFields(true);
    });
    $('rules-param').addEventListener('input', () => {
      showError('param-error', '');
      updateRulesFields(false);
    });
    const form = $('setup-form');
    form.addEventListener('submit', onSetupSubmit);
    form.addEventListener('change', (event) => {
      if (event.target.name === 'mode') updateLevelField();
    });
    $('custom-heaps').addEventListener('input', () => {
      $('heaps-custom-radio').checked = true;
    });
    $('custom-heaps').addEventListener('focus', () => {
      if ($('custom-heaps').value.trim()) $('heaps-custom-radio').checked = true;
    });

    const board = $('board');
    board.addEventListener('click', onBoardClick);
    board.addEventListener('keydown', onBoardKey);
    $('confirm').addEventListener('click', () => {
      if ($('confirm').getAttribute('aria-disabled') === 'true') return;
      const sel = st.selection;
      if (sel && sel.move === undefined && document.activeElement === $('confirm')) st.cursor[sel.heap - 1] = st.shown.heaps[sel.heap - 1] - sel.take + 1;
      confirmSelection();
    });
    $('cancel').addEventListener('click', cancelSelection);
    document.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || !st.selection) return;
      const sel = st.selection;
      const inBoard = board.contains(document.activeElement);
      cancelSelection();
      if (!inBoard && ($('selection-bar').contains(document.activeElement))) {
        if (sel.move === undefined) focusToken(sel.heap, st.shown.heaps[sel.heap - 1] - sel.take + 1);
        else {
          const chosen = board.querySelector('button[data-key][tabindex="0"]');
          if (chosen) chosen.focus();
        }
      }
    });
    $('type-move').addEventListener('submit', onTypedMove);
    $('undo').addEventListener('click', () => {
      if ($('undo').getAttribute('aria-disabled') !== 'true') undo();
    });
    $('hint-button').addEventListener('click', showHint);
    $('hint-select').addEventListener('click', () => {
      const mv = st.hintMove;
      if (!mv || !canMove(st.shown)) return;
      if (!isNim(st.shown)) {
        st.selection = describePick(st.shown, pickOfMove(st.shown, mv.text));
        renderSelection();
        const first = board.querySelector('button[data-key][aria-pressed="true"]');
        if (first) focusNav(first);
        return;
      }
      st.selection = { heap: mv.heap, take: mv.take };
      renderSelection();
      focusToken(mv.heap, st.shown.heaps[mv.heap - 1] - mv.take + 1);
    });
    $('demo-pause').addEventListener('click', () => {
      st.demoPaused = !st.demoPaused;
      renderControls(st.shown);
      announce(st.demoPaused ? 'Demo paused.' : 'Demo resumed.');
      scheduleDemo();
    });
    $('explain').addEventListener('toggle', () => {
      if ($('explain').open && st.shown) loadAnalysis(st.shown);
    });
    $('moves-panel').addEventListener('toggle', () => {
      if ($('moves-panel').open && st.shown) loadAnalysis(st.shown);
    });
    $('join').addEventListener('click', join);
    $('copy-link').addEventListener('click', copyLink);
    $('again').addEventListener('click', playAgain);
    $('stats-refresh').addEventListener('click', loadStats);
    for (const link of [$('home-link'), $('nav-new'), $('game-new'), $('result-new')]) {
      link.addEventListener('click', navigateHome);
    }
    window.addEventListener('popstate', () => route(true));
    route(false);
    loadCatalogue();
    if ($('setup').hidden) loadStats();
  }

  init();
})();
