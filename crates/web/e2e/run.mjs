#!/usr/bin/env node
// End-to-end tests of the bouton browser game in a real browser.
//
//   node crates/web/e2e/run.mjs http://127.0.0.1:PORT
//
// Needs a running `bouton serve` at that address, Debian's chromium at
// /usr/bin/chromium (or BOUTON_CHROMIUM) and `npm ci` run in this directory.
// With BOUTON_SCREENSHOTS=1 it also rewrites docs/screenshots/*.png.
// Exits 0 when every test passes, 1 (with a message) otherwise.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..', '..');
const SCREENSHOTS = path.join(ROOT, 'docs', 'screenshots');
const TAKE_SCREENSHOTS = process.env.BOUTON_SCREENSHOTS === '1';
const CHROMIUM = process.env.BOUTON_CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** The whole run may not take longer than this. */
const TOTAL_TIMEOUT_MS = 130_000;
/** Waiting for one thing on a page. */
const WAIT_MS = 15_000;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const base = (process.argv[2] || process.env.BOUTON_URL || '').replace(/\/+$/, '');
if (!/^https?:\/\//.test(base)) {
  console.error('usage: node run.mjs http://127.0.0.1:PORT   (the address of a running `bouton serve`)');
  process.exit(2);
}

const watchdog = setTimeout(() => {
  console.error(`e2e: FAILED: the tests did not finish within ${TOTAL_TIMEOUT_MS / 1000} s`);
  process.exit(1);
}, TOTAL_TIMEOUT_MS);
watchdog.unref();

// ------------------------------------------------------------------ helpers

class Failure extends Error {}

function check(condition, message) {
  if (!condition) throw new Failure(message);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every page opened, so a failure can show them all. */
const pages = [];

async function newPage(context, label) {
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  page.problems = [];
  page.label = label;
  page.on('pageerror', (error) => page.problems.push(`uncaught exception: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') page.problems.push(`console error: ${message.text()}`);
  });
  pages.push(page);
  return page;
}

function checkNoProblems(...list) {
  for (const page of list) {
    // A page that is refused a move on purpose logs the HTTP status.
    const problems = page.allowed ? page.problems.filter((p) => !page.allowed.test(p)) : page.problems;
    check(problems.length === 0, `${page.label}: the page reported errors:\n  ${problems.join('\n  ')}`);
  }
}

/** Waits until `fn` (run in the page) returns something truthy. */
async function waitIn(page, what, fn, arg) {
  try {
    return await (await page.waitForFunction(fn, arg, { timeout: WAIT_MS, polling: 50 })).jsonValue();
  } catch (error) {
    const status = await page
      .evaluate(() => document.getElementById('status')?.textContent)
      .catch(() => '?');
    throw new Failure(`${page.label}: timed out waiting for ${what} (status line: ${JSON.stringify(status)})`);
  }
}

const text = (page, selector) => page.locator(selector).first().innerText();
const logCount = (page) => page.locator('#log li').count();

async function waitForLog(page, atLeast) {
  return waitIn(page, `at least ${atLeast} moves in the log`, (n) => document.querySelectorAll('#log li').length >= n, atLeast);
}

/** Waits until this page may move or the game is over; true when over. */
async function waitForTurnOrEnd(page) {
  return waitIn(
    page,
    'its turn or the end of the game',
    () => {
      if (!document.getElementById('result').hidden) return 'over';
      return document.querySelector('#board button.token:not([aria-disabled]):not(:disabled)') ? 'turn' : null;
    },
  ).then((state) => state === 'over');
}

async function waitForText(page, selector, pattern, what) {
  return waitIn(
    page,
    what || `${selector} to match ${pattern}`,
    ([sel, source, flags]) => {
      const node = document.querySelector(sel);
      return !!node && !node.closest('[hidden]') && new RegExp(source, flags).test(node.textContent);
    },
    [selector, pattern.source, pattern.flags],
  );
}

async function gameId(page) {
  await page.waitForURL(/\/g\/[a-z0-9]+$/);
  return new URL(page.url()).pathname.split('/').pop();
}

/** The heaps shown: token buttons per heap. */
async function heapsOn(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('#board .heap')].map((heap) => heap.querySelectorAll('button.token').length),
  );
}

function token(page, heap, index) {
  return page.locator(`#board button.token[data-heap="${heap}"][data-index="${index}"]`);
}

/** Clicks a chosen token a second time, which plays the move. The page
 * redraws the heaps as soon as the server answers, which can be before a
 * locator click finishes its checks (it would then retry on a token that is
 * gone), so this is a plain mouse click at the token's centre. */
async function clickAgain(page, locator) {
  check((await locator.getAttribute('aria-pressed')) === 'true', `${page.label}: the token is chosen before it is clicked again`);
  const box = await locator.boundingBox();
  check(box, `${page.label}: the chosen token is on the page`);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/** Chooses (without confirming) up to 3 tokens of the biggest heap. */
async function previewMove(page) {
  const heaps = await heapsOn(page);
  const size = Math.max(...heaps);
  const heap = heaps.indexOf(size) + 1;
  await token(page, heap, Math.max(1, size - 2)).click();
  await waitForText(page, '#selection-text', /^Take \d+ from heap \d+\?$/);
}

async function startGame(page, { rules = 'nim', heaps, custom, misere = false, mode, level }) {
  await page.goto(`${base}/`);
  await page.locator('#setup-form').waitFor();
  await waitIn(page, 'the rule sets from the server', () => document.querySelectorAll('#rules option').length >= 14);
  await page.getByLabel('Rule set').selectOption(rules);
  if (custom) await page.locator('#custom-heaps').fill(custom);
  else await page.getByRole('radio', { name: heaps, exact: true }).check();
  await page.getByRole('radio', { name: misere ? /^Misère/ : /^Normal/ }).check();
  await page.getByRole('radio', { name: mode }).check();
  if (level) await page.locator('#level').selectOption(level);
  await page.getByRole('button', { name: 'Start the game' }).click();
  return gameId(page);
}

async function screenshot(page, name, options = {}) {
  if (!TAKE_SCREENSHOTS) return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, name), ...options });
}

async function checkNoHorizontalScroll(page, where) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    view: window.innerWidth,
  }));
  check(widths.scroll <= widths.view, `${where}: the page scrolls sideways (${widths.scroll}px wide in a ${widths.view}px window)`);
}

async function checkTargets(page, where) {
  const small = await page.evaluate(() =>
    [...document.querySelectorAll('button, a.button, .chip span, .option, select, input[type=text]')]
      .filter((el) => el.offsetParent !== null && !el.closest('[hidden]') && !el.closest('.visually-hidden'))
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.height < 43.5 || box.width < 43.5))
      .map(({ el, box }) => `${el.tagName.toLowerCase()}#${el.id || ''}.${el.className} "${(el.getAttribute('aria-label') || el.textContent).trim().slice(0, 30)}" ${Math.round(box.width)}x${Math.round(box.height)}`),
  );
  check(small.length === 0, `${where}: touch targets smaller than 44px:\n  ${small.join('\n  ')}`);
}

// -------------------------------------------------------------------- tests

/** (1) A whole game against the computer, with the mouse. */
async function mouseGame(browser) {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await newPage(context, 'mouse game');
  await startGame(page, { heaps: 'Standard: 3 5 7', mode: /^Against the computer/, level: 'random' });
  await waitForText(page, '#game-title', /3 5 7/);
  await waitForText(page, '#status', /^Your turn\.$/);
  check((await heapsOn(page)).join() === '3,5,7', 'the board shows heaps of 3, 5 and 7 tokens');
  const label = await token(page, 2, 3).getAttribute('aria-label');
  check(label === 'Heap 2, token 3 of 5: take 3', `a token's accessible name, got ${JSON.stringify(label)}`);
  check(await page.getByRole('button', { name: 'Heap 3, token 7 of 7: take 1' }).isVisible(), 'tokens are buttons named for the move');

  // Learn: the hint is hidden until asked; the tables explain the position.
  check(!(await page.locator('#hint').isVisible()), 'the hint is hidden until asked');
  await page.getByRole('button', { name: 'Hint' }).click();
  await waitForText(page, '#hint-text', /take 1 from heap [123]/, 'the hint to name a winning move');
  await page.locator('#explain summary').click();
  await waitIn(page, 'the binary table', () => document.querySelectorAll('#explain table.bits tbody tr').length === 3);
  const parity = await text(page, '#explain tr.parity');
  check(/odd/.test(parity) && /even/.test(parity), `the table marks odd and even columns in words, got ${JSON.stringify(parity)}`);
  await waitForText(page, '#explain .advice', /take 1 from heap 1/i, 'the advice read off the table');
  await page.locator('#moves-panel summary').click();
  await waitIn(page, 'the list of moves', () => document.querySelectorAll('#moves-body li').length === 15);
  const winning = await page.locator('#moves-body li.wins').allInnerTexts();
  check(winning.length === 3 && winning.every((w) => /take 1/.test(w) && /nim-sum 0/.test(w) && /wins/.test(w)),
    `taking 1 from any heap wins from 3 5 7, marked in words, got ${JSON.stringify(winning)}`);

  // A typed move, the computer's answer, and undo.
  await page.getByLabel('Or type a move').fill('3:2');
  await page.getByLabel('Or type a move').press('Enter');
  await waitForLog(page, 2);
  const first = await text(page, '#log li:nth-child(1)');
  check(/^You took 2 from heap 3/.test(first), `the log names the typed move, got ${JSON.stringify(first)}`);
  await waitForText(page, '#live', /^The computer took \d+ from heap \d\. Your turn\.$/, 'the computer\'s move announced');
  await waitForTurnOrEnd(page);
  await page.getByRole('button', { name: 'Undo' }).click();
  await waitIn(page, 'the moves taken back', () => document.querySelectorAll('#log li').length === 0);
  check((await heapsOn(page)).join() === '3,5,7', 'undo restores the heaps');

  // Click tokens until the game ends.
  for (let turn = 0; ; turn += 1) {
    check(turn < 20, 'the game ends within 20 turns');
    if (await waitForTurnOrEnd(page)) break;
    const heaps = await heapsOn(page);
    const heap = heaps.findLastIndex((n) => n > 0) + 1;
    const size = heaps[heap - 1];
    const index = turn === 0 ? size - 1 || 1 : 1;
    const take = size - index + 1;
    await token(page, heap, index).click();
    const question = await text(page, '#selection-text');
    check(question === `Take ${take} from heap ${heap}?`, `the selection asks "Take ${take} from heap ${heap}?", got ${JSON.stringify(question)}`);
    const pressed = await page.locator(`#board .heap[data-heap="${heap}"] button.token[aria-pressed="true"]`).count();
    check(pressed === take, `the chosen token and those to its right are selected (${pressed} of ${take})`);
    const before = await logCount(page);
    if (turn === 0) await page.getByRole('button', { name: `Confirm: take ${take}` }).click();
    else await clickAgain(page, token(page, heap, index));
    await waitForLog(page, before + 1);
  }
  const headline = await text(page, '#result-title');
  check(/^(You win!|The computer wins!)$/.test(headline), `the result names the winner, got ${JSON.stringify(headline)}`);
  const detail = await text(page, '#result-detail');
  check(/made the last move\. Normal: whoever takes the last token wins\.$/.test(detail), `the result gives the rule, got ${JSON.stringify(detail)}`);
  await waitIn(page, 'the review', () => document.querySelectorAll('#review li').length === 2);
  const review = await text(page, '#review');
  check(/first mistake|never gave away/.test(review), `the review speaks of mistakes, got ${JSON.stringify(review)}`);
  await waitForText(page, '#stats-body', /Against the computer\s*random\s*[1-9]/, 'the statistics to count the game');
  checkNoProblems(page);
  await context.close();
}

/** (2) A whole game with the keyboard only. */
async function keyboardGame(browser) {
  const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
  const page = await newPage(context, 'keyboard game');
  await page.goto(`${base}/`);
  await page.locator('#setup-form').waitFor();
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      return { id: el.id, name: el.getAttribute('name'), cls: el.className, label: el.getAttribute('aria-label') || '', value: el.value };
    });
  async function tabTo(what, predicate, limit = 40) {
    for (let i = 0; i < limit; i += 1) {
      await page.keyboard.press('Tab');
      if (predicate(await focused())) return;
    }
    throw new Failure(`keyboard game: Tab never reached ${what}`);
  }
  await tabTo('the custom heaps field', (f) => f.id === 'custom-heaps');
  await page.keyboard.type('2 3 4');
  await tabTo('the rule', (f) => f.name === 'rule');
  await page.keyboard.press('ArrowDown');
  check(await page.getByRole('radio', { name: /^Misère/ }).isChecked(), 'arrow keys choose misère');
  await tabTo('the start button', (f) => f.id === 'start');
  await page.keyboard.press('Enter');
  await gameId(page);
  await waitForText(page, '#game-title', /2 3 4/);
  await waitForText(page, '#game-meta', /Misère/);
  await tabTo('a token', (f) => f.cls.includes('token'), 20);

  for (let turn = 0; ; turn += 1) {
    check(turn < 20, 'the game ends within 20 turns');
    if (await waitForTurnOrEnd(page)) break;
    let f = await focused();
    check(f.cls.includes('token'), `keyboard game: after the computer's move the focus stays on a token, not ${JSON.stringify(f)}`);
    if (turn === 0) {
      await page.keyboard.press('Home');
      f = await focused();
      check(/token 1 of \d+: take \d+$/.test(f.label), `Home goes to the first token, got ${JSON.stringify(f.label)}`);
      await page.keyboard.press('ArrowRight');
      f = await focused();
      check(/token 2 of/.test(f.label), `ArrowRight moves along the heap, got ${JSON.stringify(f.label)}`);
      await page.keyboard.press('ArrowDown');
      const down = await focused();
      check(down.label !== f.label || /^Heap 3/.test(f.label), 'ArrowDown moves to the next heap');
      await page.keyboard.press('End');
      f = await focused();
      check(/take 1$/.test(f.label), `End goes to the last token, got ${JSON.stringify(f.label)}`);
      await page.keyboard.press(' ');
      await waitForText(page, '#selection-text', /^Take 1 from heap \d+\?$/, 'Space to choose a token');
      await page.keyboard.press('Escape');
      await waitIn(page, 'Escape to cancel the choice', () => !document.querySelector('#board button.token[aria-pressed="true"]'));
      f = await focused();
      check(f.cls.includes('token'), 'the focus stays on the token after Escape');
    } else {
      await page.keyboard.press('Home');
    }
    f = await focused();
    const take = Number(/take (\d+)$/.exec(f.label)[1]);
    const heap = Number(/^Heap (\d+)/.exec(f.label)[1]);
    await page.keyboard.press('Enter');
    await waitForText(page, '#selection-text', new RegExp(`^Take ${take} from heap ${heap}\\?$`), 'Enter to choose a token');
    const before = await logCount(page);
    await page.keyboard.press('Enter');
    await waitForLog(page, before + 1);
  }
  const headline = await text(page, '#result-title');
  check(/^(You win!|The computer wins!)$/.test(headline), `keyboard game: the result names the winner, got ${JSON.stringify(headline)}`);
  const detail = await text(page, '#result-detail');
  check(/Misère: whoever takes the last token loses\.$/.test(detail), `keyboard game: the result gives the misère rule, got ${JSON.stringify(detail)}`);
  const f = await focused();
  check(f.id === 'result-title', `keyboard game: the focus moves to the result, not ${JSON.stringify(f)}`);
  checkNoProblems(page);
  await context.close();
}

/** (3) Two people online, and a third watching. */
async function onlineGame(browser) {
  const contexts = [];
  const open = async (label, viewport) => {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    return newPage(context, label);
  };
  const creator = await open('online creator', DESKTOP);
  const friend = await open('online friend', PHONE);
  const watcher = await open('online watcher', DESKTOP);

  const id = await startGame(creator, { heaps: 'Standard: 3 5 7', mode: /^Online with a friend/ });
  const link = await creator.locator('#share-link').inputValue();
  check(link === `${base}/g/${id}`, `the creator sees the game's link, got ${JSON.stringify(link)}`);
  check(await creator.getByRole('button', { name: 'Copy link' }).isVisible(), 'the link has a copy button');
  await waitForText(creator, '#status', /Waiting for your friend to join/);
  await screenshot(creator, 'desktop-online-link.png');

  await friend.goto(link);
  await friend.getByRole('button', { name: 'Take the second seat' }).waitFor();
  await screenshot(friend, 'phone-online-join.png');
  await friend.getByRole('button', { name: 'Take the second seat' }).click();
  await waitForText(friend, '#status', /^Your friend’s turn/);
  await waitForText(creator, '#share-state', /Your friend has joined/, 'the creator to see the friend join');
  await waitForText(creator, '#status', /^Your turn\.$/);

  await watcher.goto(link);
  await waitForText(watcher, '#watch-note', /You are watching this game/);
  check(!(await watcher.locator('#join').isVisible()), 'a watcher is not offered a taken seat');
  check((await watcher.locator('#board button.token:not(:disabled)').count()) === 0, 'a watcher has no token to press');
  check(!(await watcher.locator('#type-move').isVisible()), 'a watcher cannot type a move');
  await watcher.locator('#board button.token').first().click({ force: true }).catch(() => {});
  check((await text(watcher, '#selection-text').catch(() => '')) === '', 'a watcher cannot choose a token');

  async function move(page, heap, take, others) {
    const size = (await heapsOn(page))[heap - 1];
    const before = await logCount(page);
    await token(page, heap, size - take + 1).click();
    await clickAgain(page, token(page, heap, size - take + 1));
    await waitForLog(page, before + 1);
    for (const [other, name] of others) {
      await waitForText(other, `#log li:nth-child(${before + 1})`, new RegExp(`^${name} took ${take} from heap ${heap}`), `${other.label} to see the move`);
    }
  }
  await move(creator, 1, 3, [[friend, 'Your friend'], [watcher, 'Player 1']]);
  await waitForText(friend, '#status', /^Your turn\.$/);

  // A reload keeps the seat (the token is in localStorage).
  await friend.reload();
  await waitForText(friend, '#status', /^Your turn\.$/, 'the friend to keep the seat after reloading');
  await move(friend, 2, 5, [[creator, 'Your friend'], [watcher, 'Player 2']]);
  await move(creator, 3, 7, [[friend, 'Your friend'], [watcher, 'Player 1']]);

  const expected = [
    [creator, 'You win!'],
    [friend, 'Your friend wins!'],
    [watcher, 'Player 1 wins!'],
  ];
  for (const [page, headline] of expected) {
    await waitForText(page, '#result-title', new RegExp(`^${headline}$`), `${page.label} to see "${headline}"`);
    const detail = await text(page, '#result-detail');
    check(/Normal: whoever takes the last token wins\./.test(detail), `${page.label}: the result gives the rule, got ${JSON.stringify(detail)}`);
  }
  await checkNoHorizontalScroll(friend, 'online game on a phone');
  checkNoProblems(creator, friend, watcher);
  for (const context of contexts) await context.close();
}

/** (4) Phone layout checks, and the screenshots in docs/screenshots. */
async function layoutAndScreenshots(browser) {
  for (const scheme of ['light', 'dark']) {
    const phone = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, colorScheme: scheme, deviceScaleFactor: 2 });
    const page = await newPage(phone, `phone (${scheme})`);
    await page.goto(`${base}/`);
    await page.locator('#setup-form').waitFor();
    await checkNoHorizontalScroll(page, 'the setup on a phone');
    await checkTargets(page, 'the setup on a phone');
    if (scheme === 'light') await screenshot(page, 'phone-setup.png');
    await startGame(page, { heaps: '12 12 20 20', mode: /^Against the computer/, level: 'perfect' });
    await waitForText(page, '#status', /^Your turn\.$/);
    await checkNoHorizontalScroll(page, 'the biggest preset on a phone');
    await checkTargets(page, 'a game on a phone');
    // Taking 1 from heap 1 of 3 5 7 leaves every column even: whatever the
    // computer answers, the explanation then has odd columns to show.
    await startGame(page, { heaps: 'Standard: 3 5 7', mode: /^Against the computer/, level: 'medium' });
    await waitForText(page, '#status', /^Your turn\.$/);
    await token(page, 1, 3).click();
    await clickAgain(page, token(page, 1, 3));
    await waitForLog(page, 1);
    await waitForTurnOrEnd(page);
    await previewMove(page);
    await checkNoHorizontalScroll(page, 'a game on a phone');
    await page.evaluate(() => window.scrollTo(0, 0));
    await sleep(900); // let the computer's move finish animating
    await screenshot(page, `phone-game-${scheme}.png`);
    await page.locator('#explain summary').click();
    await page.locator('#explain table.bits').waitFor();
    await checkNoHorizontalScroll(page, 'the explanation on a phone');
    if (scheme === 'light') {
      await page.locator('#explain').evaluate((el) => el.scrollIntoView());
      await screenshot(page, 'phone-explain.png');
    }
    checkNoProblems(page);
    await phone.close();
  }

  if (!TAKE_SCREENSHOTS) return;
  for (const scheme of ['light', 'dark']) {
    const desktop = await browser.newContext({ viewport: DESKTOP, colorScheme: scheme });
    const page = await newPage(desktop, `desktop (${scheme})`);
    await page.goto(`${base}/`);
    await page.locator('#setup-form').waitFor();
    if (scheme === 'light') await screenshot(page, 'desktop-setup.png');
    await startGame(page, { heaps: 'Standard: 3 5 7', mode: /^Against the computer/, level: 'random' });
    await waitForText(page, '#status', /^Your turn\.$/);
    await page.getByLabel('Or type a move').fill('1 1');
    await page.getByLabel('Or type a move').press('Enter');
    await waitForLog(page, 2);
    await waitForTurnOrEnd(page);
    await page.locator('#explain summary').click();
    await page.locator('#explain table.bits').waitFor();
    await page.getByRole('button', { name: 'Hint' }).click();
    await page.locator('#hint-text').waitFor();
    await previewMove(page);
    await page.mouse.move(0, 0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await sleep(900); // let the computer's move finish animating
    await screenshot(page, `desktop-game-${scheme}.png`);
    checkNoProblems(page);
    await desktop.close();
  }
}

// ------------------------------------------------- other rule sets: helpers

/** Creates a game through the API from a page on the site, keeping its
 * seat in the page's storage as the page itself does, and opens it. */
async function openApiGame(page, body) {
  await page.goto(`${base}/`);
  const grant = await page.evaluate(async (request) => {
    const response = await fetch('/api/games', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
    });
    const data = await response.json();
    if (!response.ok) return { error: `${response.status} ${data.error}` };
    localStorage.setItem(`bouton.seat.${data.game.id}`, JSON.stringify({ token: data.token, seat: data.seat }));
    return data;
  }, body);
  check(!grant.error, `creating ${JSON.stringify(body)} through the API: ${grant.error}`);
  await page.goto(`${base}/g/${grant.game.id}`);
  return grant.game.id;
}

/** The game as the API sends it. */
async function apiView(page, id) {
  return page.evaluate(async (gameId) => (await fetch(`/api/games/${gameId}`)).json(), id);
}

/** Waits until the page shows the game at the API's latest ply, and returns that view. */
async function settled(page, id) {
  for (let i = 0; i < 100; i += 1) {
    const view = await apiView(page, id);
    const shown = await logCount(page);
    if (shown === view.ply) return view;
    await sleep(100);
  }
  throw new Failure(`${page.label}: the log never caught up with the game`);
}

/** Northcott rows as drawn: width and the pieces' columns (from 1). */
async function rowsOn(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('#board .northcott-row')].map((row) => {
      const cells = [...row.querySelectorAll('.squares > *')];
      return {
        width: cells.length,
        white: cells.findIndex((c) => c.querySelector('.piece.white')) + 1,
        black: cells.findIndex((c) => c.querySelector('.piece.black')) + 1,
      };
    }),
  );
}

/** Pairs of piles as drawn. */
async function pairsOn(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('#board .pair')].map((pair) =>
      [...pair.querySelectorAll('.pile')].map((pile) => pile.querySelectorAll('button.token').length),
    ),
  );
}

const sameJson = (a, b) => JSON.stringify(a) === JSON.stringify(b);
/** The numbers in a position text such as "2 4 3", joined by commas. */
const numbers = (textForm) => (String(textForm).match(/\d+/g) || []).join();

// ----------------------------------------------- other rule sets: the tests

/** (5) Kayles against the computer with the mouse: a run inside a row. */
async function kaylesGame(browser) {
  const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
  const page = await newPage(context, 'kayles game');
  page.allowed = /status of 4(00|22)/; // the illegal typed move is answered 422
  const id = await openApiGame(page, { rules: 'kayles', position: [7, 4], mode: 'computer', level: 'random' });
  await waitForText(page, '#game-title', /^Kayles.*: 7 4$/, 'the title to name Kayles');
  await waitForText(page, '#status', /^Your turn\.$/);
  check((await heapsOn(page)).join() === '7,4', 'the board shows rows of 7 and 4 pins');
  check(/^Kayles/.test(await page.title()) || /Your turn/.test(await page.title()), 'the document title follows the game');
  check(/`?1 1`?|\d/.test(await page.locator('#move-input').getAttribute('placeholder')), 'the typed move has an example');

  // A typed move that Kayles forbids (three pins): the error, nothing played.
  await page.getByLabel('Or type a move').fill('1 3');
  await page.getByLabel('Or type a move').press('Enter');
  await waitForText(page, '#game-error', /\S/, 'the server’s refusal of an illegal move');
  const refused = await apiView(page, id);
  check(refused.ply === 0 && sameJson(refused.board.heaps, [7, 4]), `an illegal move changes nothing, got ply ${refused.ply}, ${JSON.stringify(refused.board)}`);
  check((await logCount(page)) === 0 && (await heapsOn(page)).join() === '7,4', 'the page still shows the start after an illegal move');
  await page.getByLabel('Or type a move').fill('');

  // The hint speaks of Grundy values.
  await page.getByRole('button', { name: 'Hint' }).click();
  await waitForText(page, '#hint-text', /(winning|No move wins).*Grundy value of the position is \d+/, 'a hint with the Grundy value');

  // The explanation: one Grundy value per row and their XOR.
  await page.locator('#explain summary').click();
  await waitIn(page, 'the table of Grundy values', () => document.querySelectorAll('#explain table.grundy-values tbody tr').length === 2);
  const explained = await text(page, '#explain-body');
  check(/Total \(XOR\)/.test(explained) && /Grundy/.test(explained), `the explanation shows the values and their XOR, got ${JSON.stringify(explained.slice(0, 200))}`);
  await page.locator('#moves-panel summary').click();
  await waitIn(page, 'the list of moves', () => document.querySelectorAll('#moves-body li').length > 5);
  await page.locator('#explain summary').click();
  await page.locator('#moves-panel summary').click();

  // Pins 3 and 4 of row 1: a run inside the row, which splits it.
  await token(page, 1, 3).click();
  await waitForText(page, '#selection-text', /^Take 1 from heap 1, leaving 2 and 4\?$/);
  await token(page, 1, 4).click();
  await waitForText(page, '#selection-text', /^Take 2 from heap 1, leaving 2 and 3\?$/, 'a run of two pins inside the row');
  const pressed = await page.locator('#board .heap[data-heap="1"] button.token[aria-pressed="true"]').evaluateAll((list) => list.map((b) => b.dataset.index));
  check(pressed.join() === '3,4', `pins 3 and 4 are chosen, got ${pressed}`);
  await page.getByRole('button', { name: 'Confirm: take 2' }).click();
  await waitForLog(page, 2);
  const first = await text(page, '#log li:nth-child(1)');
  check(/^You took 2 from heap 1, leaving 2 and 3/.test(first), `the log describes the split, got ${JSON.stringify(first)}`);
  let view = await settled(page, id);
  check(numbers(view.moves[0].after) === '2,4,3', `the row split in two: 2 4 3, got ${JSON.stringify(view.moves[0])}`);
  check((await heapsOn(page)).join() === view.board.heaps.join(), `the board shows the API's heaps ${view.board.heaps}, got ${await heapsOn(page)}`);

  // Undo takes back both moves; then the same run again.
  await waitForTurnOrEnd(page);
  await page.getByRole('button', { name: 'Undo' }).click();
  await waitIn(page, 'the moves taken back', () => document.querySelectorAll('#log li').length === 0);
  check((await heapsOn(page)).join() === '7,4', 'undo restores the rows of 7 and 4');
  check((await apiView(page, id)).ply === 0, 'undo takes the moves back on the server');
  await token(page, 1, 3).click();
  await token(page, 1, 4).click();
  await clickAgain(page, token(page, 1, 4));
  await waitForLog(page, 2);
  view = await settled(page, id);
  check((await heapsOn(page)).join() === view.board.heaps.join(), `after the replay the board shows the API's heaps ${view.board.heaps}`);

  if (TAKE_SCREENSHOTS) {
    await waitForTurnOrEnd(page);
    const heaps = await heapsOn(page);
    const big = heaps.findIndex((n) => n >= 3);
    if (big >= 0) {
      await token(page, big + 1, 2).click();
      if (heaps[big] >= 4) await token(page, big + 1, 3).click();
    }
    await page.mouse.move(0, 0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'desktop-kayles.png');
    if (big >= 0) await page.getByRole('button', { name: 'Cancel' }).click();
  }

  // Then one pin at a time from the right end of the last row, to the end.
  for (let turn = 0; ; turn += 1) {
    check(turn < 12, 'the Kayles game ends within 12 turns');
    if (await waitForTurnOrEnd(page)) break;
    const heaps = await heapsOn(page);
    const heap = heaps.findLastIndex((n) => n > 0) + 1;
    const size = heaps[heap - 1];
    await token(page, heap, size).click();
    await waitForText(page, '#selection-text', new RegExp(`^Take 1 from heap ${heap}\\?$`));
    const before = await logCount(page);
    await clickAgain(page, token(page, heap, size));
    await waitForLog(page, before + 1);
  }
  view = await settled(page, id);
  check(view.over && view.board.heaps.every((n) => n === 0), `the game is over with every pin down, got ${JSON.stringify(view.board)}`);
  const headline = await text(page, '#result-title');
  check(headline === (view.winner === 'first' ? 'You win!' : 'The computer wins!'), `the result names the API's winner, got ${JSON.stringify(headline)}`);
  await waitForText(page, '#result-detail', /made the last move/);
  await waitIn(page, 'the review', () => document.querySelectorAll('#review li').length === 2);
  checkNoProblems(page);
  await context.close();
}

/** (6) Northcott's game and Wythoff's game with the mouse. */
async function boardGames(browser) {
  const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
  const page = await newPage(context, 'northcott game');
  const id = await openApiGame(page, { rules: 'northcott', position: [8, 1, 5, 8, 2, 4], mode: 'computer', level: 'perfect' });
  await waitForText(page, '#status', /^Your turn\.$/);
  await waitForText(page, '#board .pieces-legend', /White: You.*Black: The computer/);
  const start = await apiView(page, id);
  check(sameJson(await rowsOn(page), start.board.rows), `the board shows the API's rows ${JSON.stringify(start.board.rows)}, got ${JSON.stringify(await rowsOn(page))}`);
  // Squares White cannot reach (beyond Black's piece) are not buttons.
  check((await page.locator('#board .northcott-row[data-line="r1"] button.square').count()) === 3, 'White can reach 3 squares of row 1');
  const square = page.getByRole('button', { name: 'Row 1, column 3: move White here, leaving a gap of 1' });
  await square.click();
  await waitForText(page, '#selection-text', /^Move White in row 1 to column 3, leaving a gap of 1\?$/);
  await clickAgain(page, square);
  await waitForLog(page, 2);
  const view = await settled(page, id);
  check(view.board.rows[0].white === 3, `White moved to column 3, got ${JSON.stringify(view.board.rows[0])}`);
  check(sameJson(await rowsOn(page), view.board.rows), `after the computer's reply the board shows the API's rows ${JSON.stringify(view.board.rows)}, got ${JSON.stringify(await rowsOn(page))}`);
  await waitForText(page, '#log li:nth-child(1)', /^You moved White in row 1 to column 3/);
  if (TAKE_SCREENSHOTS) {
    await waitIn(page, 'White to move again', () => document.querySelector('#board button.square.target:not([aria-disabled])'));
    const target = page.locator('#board button.square.target:not([aria-disabled])').first();
    if (await target.count()) await target.click();
    await page.mouse.move(0, 0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'desktop-northcott.png');
  }
  checkNoProblems(page);

  // Wythoff, two players on one device: the same from both piles, then one pile.
  const wythoff = await newPage(context, 'wythoff game');
  const wid = await openApiGame(wythoff, { rules: 'wythoff', position: [3, 5], mode: 'local' });
  await waitForText(wythoff, '#status', /^Player 1: your turn\.$/);
  check(sameJson(await pairsOn(wythoff), [[3, 5]]), `the pair's piles hold 3 and 5, got ${JSON.stringify(await pairsOn(wythoff))}`);
  await wythoff.getByRole('button', { name: 'Pair 1, pile 1, token 2 of 3: take 2' }).click();
  await waitForText(wythoff, '#selection-text', /^Take 2 from the first pile\?$/);
  await wythoff.getByRole('button', { name: 'Pair 1, pile 2, token 4 of 5: take 2' }).click();
  await waitForText(wythoff, '#selection-text', /^Take 2 from both piles\?$/, 'the same number from both piles');
  await wythoff.getByRole('button', { name: 'Confirm: take 4' }).click();
  await waitForLog(wythoff, 1);
  let wview = await settled(wythoff, wid);
  check(sameJson(wview.board.pairs, [[1, 3]]), `2 taken from both piles leaves 1 and 3, got ${JSON.stringify(wview.board.pairs)}`);
  check(sameJson(await pairsOn(wythoff), [[1, 3]]), 'the board shows piles of 1 and 3');
  await waitForText(wythoff, '#status', /^Player 2: your turn\.$/);
  const pile = wythoff.getByRole('button', { name: 'Pair 1, pile 2, token 1 of 3: take 3' });
  await pile.click();
  await clickAgain(wythoff, pile);
  await waitForLog(wythoff, 2);
  wview = await settled(wythoff, wid);
  check(sameJson(wview.board.pairs, [[1, 0]]), `3 taken from the second pile leaves 1 and 0, got ${JSON.stringify(wview.board.pairs)}`);
  await waitForText(wythoff, '#log li:nth-child(2)', /^Player 2 took 3 from the second pile/);
  checkNoProblems(wythoff);

  // A demo of staircase Nim: the computers move down the stairs.
  const demo = await newPage(context, 'staircase demo');
  const did = await openApiGame(demo, { rules: 'staircase', position: [1, 0, 2], mode: 'demo', level: 'perfect' });
  await waitForText(demo, '#game-title', /^Staircase.*: 1 0 2$/);
  await waitForLog(demo, 1);
  const dview = await settled(demo, did);
  const steps = await demo.evaluate(() =>
    [...document.querySelectorAll('#board .stair')].reverse().map((s) => s.querySelectorAll('button.token').length),
  );
  check(sameJson(steps, dview.board.steps), `the staircase shows the API's coins ${JSON.stringify(dview.board.steps)}, got ${JSON.stringify(steps)}`);
  await waitForText(demo, '#log li:nth-child(1)', /^Computer 1 moved \d coins? from step \d/);
  checkNoProblems(demo);
  await context.close();
}

/** (7) The setup form: a subtraction game with its own parameter. */
async function setupOtherRules(browser) {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const page = await newPage(context, 'setup of a subtraction game');
  page.allowed = /status of 422/; // the bad parameter is answered 422
  await page.goto(`${base}/`);
  await page.locator('#setup-form').waitFor();
  await waitIn(page, 'the rule sets from the server', () => document.querySelectorAll('#rules option').length >= 14);
  check(await page.getByRole('radio', { name: 'Standard: 3 5 7' }).isChecked(), 'a first visit starts from the standard start of the first rule set');
  const levels = await page.locator('#level option').evaluateAll((list) => list.map((o) => o.value));
  check(levels.join() === 'random,beginner,easy,medium,hard,perfect', `the levels come from the server, got ${levels}`);
  check((await page.locator('#level').inputValue()) === 'hard', 'the level is the server\'s default');
  await waitForText(page, '#custom-help', /1 to 12 heaps of up to 50 tokens/, 'the limits of a start from the server');
  // Every rule set's title and rules on the form are the server's, word for word.
  const offer = await page.evaluate(async () => (await fetch('/api/rules')).json());
  // The list names each family, not its example ("An octal or hexadecimal game (any code)", not "… 0.137").
  const labels = await page.locator('#rules option').evaluateAll((list) => list.map((o) => o.textContent));
  const families = offer.rules.map((e) => `${e.family_name[0].toUpperCase()}${e.family_name.slice(1)}`);
  check(labels.join('|') === families.join('|'), `the rule-set list shows the families' names, got ${JSON.stringify(labels)}`);
  check(offer.rules.every((e) => !e.parameter || !e.family_name.includes(e.parameter)), 'no family name carries its example parameter');
  for (const entry of offer.rules) {
    await page.getByLabel('Rule set').selectOption(entry.family);
    const title = `Play ${entry.name}`;
    await waitIn(page, `the title of ${entry.id}`, (want) => document.querySelector('#setup-title').textContent === want, title);
    const lead = await page.locator('#setup-lead').innerText();
    const want = `${entry.summary[0].toUpperCase()}${entry.summary.slice(1)}.`;
    check(lead === want, `the rules of ${entry.id} are ${JSON.stringify(want)}, got ${JSON.stringify(lead)}`);
  }
  await page.getByLabel('Rule set').selectOption('subtraction');
  await waitForText(page, '#setup-title', /^Play the subtraction game/);
  const param = page.locator('#rules-param');
  check((await param.inputValue()) === '2,3,7', `the parameter starts as the example, got ${JSON.stringify(await param.inputValue())}`);
  check(await page.getByRole('radio', { name: /^Standard: / }).isChecked(), 'the standard start is chosen');
  check(!(await page.locator('#nim-presets').isVisible()), 'Nim’s presets are hidden');
  await checkNoHorizontalScroll(page, 'the setup of a subtraction game on a phone');

  // A parameter the server refuses: its message next to the form.
  await param.fill('x');
  await page.getByRole('button', { name: 'Start the game' }).click();
  await waitForText(page, '#setup-error', /\S/, 'the server’s message about a bad parameter');
  check(!/\/g\//.test(page.url()), 'no game starts with a bad parameter');

  await param.fill('1,2,5');
  await waitForText(page, '#setup-title', /1, 2, 5/, 'the title to follow the parameter');
  await page.locator('#custom-heaps').fill('4 6');
  await page.getByRole('radio', { name: /^Two players/ }).check();
  await page.getByRole('button', { name: 'Start the game' }).click();
  const id = await gameId(page);
  const view = await apiView(page, id);
  check(view.rules.id === 'subtraction:1,2,5', `the game's rules are subtraction:1,2,5, got ${JSON.stringify(view.rules.id)}`);
  check(sameJson(view.start, [4, 6]), `the game starts from 4 6, got ${JSON.stringify(view.start)}`);
  await waitForText(page, '#game-title', /1, 2, 5.*: 4 6$/, 'the game title to name the rule set');
  check((await heapsOn(page)).join() === '4,6', 'the board shows heaps of 4 and 6');
  // 3 may not be taken: that token is there but the server says no; 5 may.
  await token(page, 2, 2).click();
  await waitForText(page, '#selection-text', /^Take 5 from heap 2\?$/);
  await page.getByRole('button', { name: 'Confirm: take 5' }).click();
  await waitForLog(page, 1);
  check((await heapsOn(page)).join() === '4,1', 'taking 5 leaves 4 and 1');
  await checkNoHorizontalScroll(page, 'a subtraction game on a phone');

  // The choice is remembered.
  await page.goto(`${base}/`);
  await waitIn(page, 'the rule sets from the server', () => document.querySelectorAll('#rules option').length >= 14);
  check((await page.locator('#rules').inputValue()) === 'subtraction', 'the rule set is remembered');
  check((await param.inputValue()) === '1,2,5', 'the parameter is remembered');
  checkNoProblems(page);
  await context.close();
}

// ------------------------------------------------------- hexadecimal codes

/** (8b) A hexadecimal code set up through the form (octal family, code 0.F),
 * and a typed move that leaves three heaps, checked on the board, in the
 * log and against the API. */
async function hexadecimalGame(browser) {
  const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
  const page = await newPage(context, 'hexadecimal game');
  page.allowed = /status of 422/; // the impossible three-heap move is answered 422
  await page.goto(`${base}/`);
  await page.locator('#setup-form').waitFor();
  await waitIn(page, 'the rule sets from the server', () => document.querySelectorAll('#rules option').length >= 14);
  await page.getByLabel('Rule set').selectOption('octal');
  // The server names and describes every code typed: a hexadecimal one as
  // such, a code that is a known game as that game, a wrong one not at all.
  const param = page.locator('#rules-param');
  for (const [code, title, lead] of [
    ['0.F', 'Play the hexadecimal game 0.F', 'Take 1 from a heap, leaving 0 to 3 heaps.'],
    ['4.8', 'Play the hexadecimal game 4.8', 'Split a heap into two; take 1 from a heap, leaving 3 heaps.'],
    ['0.77', 'Play Kayles (0.77)', 'Knock down one pin or two neighbouring pins from a row; a gap splits the row in two.'],
    ['0.354', 'Play the octal game 0.354', 'Take 1 from a heap; take 2, leaving 0 or 2 heaps; take 3, leaving 2 heaps.'],
  ]) {
    await param.fill(code);
    await waitIn(page, `the title of ${code}`, (want) => document.querySelector('#setup-title').textContent === want, title);
    const shown = await page.locator('#setup-lead').innerText();
    check(shown === lead, `the rules of ${code} are ${JSON.stringify(lead)}, got ${JSON.stringify(shown)}`);
    const tab = `bouton: play ${title[5].toUpperCase()}${title.slice(6)}`;
    check((await page.title()) === tab, `the tab names ${code}: ${JSON.stringify(tab)}, got ${JSON.stringify(await page.title())}`);
  }
  await param.fill('0.');
  await waitForText(page, '#param-error', /0\./, 'the server’s reason why 0. is not a code, next to the field');
  check((await text(page, '#setup-title')) === 'Play octal:0.', `a wrong code is not named, got ${JSON.stringify(await text(page, '#setup-title'))}`);
  check((await page.locator('#setup-lead').innerText()) === '', 'a wrong code has no rules');
  await param.fill('0.F');
  await waitIn(page, 'the title of 0.F again', () => document.querySelector('#setup-title').textContent === 'Play the hexadecimal game 0.F');
  check((await page.locator('#param-error').innerText()) === '', 'the error goes with the wrong code');
  await page.locator('#custom-heaps').fill('9 5');
  await page.getByRole('radio', { name: /^Normal/ }).check();
  await page.getByRole('radio', { name: /^Against the computer/ }).check();
  await page.locator('#level').selectOption('random');
  await page.getByRole('button', { name: 'Start the game' }).click();
  const id = await gameId(page);
  await waitForText(page, '#status', /^Your turn\.$/);
  const start = await apiView(page, id);
  check(start.rules.id === 'octal:0.F', `the game's rules are octal:0.F, got ${JSON.stringify(start.rules.id)}`);
  check((await heapsOn(page)).join() === '9,5', 'the board shows heaps of 9 and 5');
  const placeholder = await page.locator('#move-input').getAttribute('placeholder');
  check(/\d/.test(placeholder), `the typed move has an example, got ${JSON.stringify(placeholder)}`);

  // Two parts that leave nothing for the third heap: refused, nothing played.
  await page.getByLabel('Or type a move').fill('2 1 3 3');
  await page.getByLabel('Or type a move').press('Enter');
  await waitForText(page, '#game-error', /third heap/, 'the server’s reason for refusing the three-heap move');
  check((await apiView(page, id)).ply === 0 && (await heapsOn(page)).join() === '9,5', 'a refused move changes nothing');

  // Take 1 from heap 1 and leave 2, 3 and the rest, 3: three heaps in its place.
  await page.getByLabel('Or type a move').fill('1 1 2 3');
  await page.getByLabel('Or type a move').press('Enter');
  await waitForLog(page, 1);
  const first = await text(page, '#log li:nth-child(1)');
  check(/^You took 1 from heap 1, leaving 2, 3 and 3/.test(first), `the log describes the three heaps left, got ${JSON.stringify(first)}`);
  const view = await settled(page, id);
  check(numbers(view.moves[0].after) === '2,5,3,3', `the heap of 9 became 2, 3 and 3: 2 5 3 3, got ${JSON.stringify(view.moves[0])}`);
  check((await heapsOn(page)).join() === view.board.heaps.join(), `the board shows the API's heaps ${view.board.heaps}, got ${await heapsOn(page)}`);
  if (view.ply === 1) {
    check((await heapsOn(page)).join() === '2,5,3,3', `the board shows 2 5 3 3, got ${await heapsOn(page)}`);
  }
  checkNoProblems(page);
  await context.close();
}

// ------------------------------------------------------------------- Chomp

/** Column heights as drawn: the squares left in each column of the grid. */
async function columnsOn(page) {
  return page.evaluate(() => {
    const squares = [...document.querySelectorAll('#board .grid button.bite')];
    const width = document.querySelectorAll('#board .grid-columns .grid-number').length - 1;
    const heights = Array(width).fill(0);
    for (const b of squares) heights[Number(b.dataset.col) - 1] += 1;
    return heights;
  });
}

function square(page, column, row) {
  return page.locator(`#board button.bite[data-col="${column}"][data-row="${row}"]`);
}

/** The bar after biting (column, row): that square and all above and right of it eaten. */
const afterBite = (columns, column, row) => columns.map((height, i) => (i + 1 >= column ? Math.min(height, row - 1) : height));

/** (8) Chomp: set up in the form, played to the end by clicking squares. */
async function chompGame(browser) {
  const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
  const page = await newPage(context, 'chomp game');
  const id = await startGame(page, { rules: 'chomp', custom: '5 5 4 3', mode: /^Against the computer/, level: 'random' });
  await waitForText(page, '#game-title', /^Chomp: 5 5 4 3$/, 'the title to name Chomp and the bar');
  await waitForText(page, '#status', /^Your turn\.$/);
  check(sameJson(await columnsOn(page), [5, 5, 4, 3]), `the grid shows columns of 5 5 4 3 squares, got ${JSON.stringify(await columnsOn(page))}`);
  check((await page.locator('#board .grid-row.line').count()) === 5, 'the grid has a line per row');
  check(/`?3 2`?|\d/.test(await page.locator('#move-input').getAttribute('placeholder')), 'the typed move has an example');

  // The poisoned square: marked, reachable, never chosen.
  const poison = square(page, 1, 1);
  check((await poison.getAttribute('aria-label')) === 'Column 1, row 1: the poisoned square, which is never eaten', 'the poisoned square says what it is');
  check((await poison.getAttribute('aria-disabled')) === 'true', 'the poisoned square cannot be chosen');
  await poison.click({ force: true });
  check((await text(page, '#selection-text')) === '', 'clicking the poisoned square chooses nothing');
  await waitForText(page, '#live', /poisoned square/, 'the poisoned square announced');

  // A square chooses itself and every square above and right of it.
  await square(page, 2, 3).click();
  await waitForText(page, '#selection-text', /^Bite column 2, row 3, eating 6 squares\?$/);
  const pressed = await page.locator('#board button.bite[aria-pressed="true"]').evaluateAll((list) => list.map((b) => `${b.dataset.col}:${b.dataset.row}`).sort());
  check(sameJson(pressed, ['2:3', '2:4', '2:5', '3:3', '3:4', '4:3']), `the bite chooses the squares above and right of it, got ${pressed}`);

  // The keyboard: arrows move over the grid, Enter chooses, Escape cancels.
  await square(page, 2, 3).focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowRight');
  let label = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  check(label === 'Column 3, row 4: eat 1 square', `arrow keys move over the grid, got ${JSON.stringify(label)}`);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Home');
  label = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  check(/^Column 1, row 1: the poisoned square/.test(label), `Home on the bottom row reaches the poisoned square, got ${JSON.stringify(label)}`);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await waitForText(page, '#selection-text', /^Bite column 2, row 1, eating 12 squares\?$/, 'Enter to choose a square');
  await page.keyboard.press('Escape');
  await waitIn(page, 'Escape to cancel the choice', () => !document.querySelector('#board button.bite[aria-pressed="true"]'));

  // Bite column 2, row 3; the move and the bar as the rules say.
  let view = await apiView(page, id);
  let expected = afterBite(view.board.columns, 2, 3);
  await square(page, 2, 3).click();
  await page.getByRole('button', { name: 'Confirm: eat 6' }).click();
  await waitForLog(page, 1);
  view = await settled(page, id);
  check(numbers(view.moves[0].after) === expected.join(), `biting column 2, row 3 leaves ${expected}, got ${JSON.stringify(view.moves[0])}`);
  await waitForText(page, '#log li:nth-child(1)', /^You bit column 2, row 3 \(6 squares\)/, 'the log to describe the bite');
  check(sameJson(await columnsOn(page), view.board.columns), `the grid shows the API's columns ${view.board.columns}, got ${await columnsOn(page)}`);

  // Then bites by clicking, each checked against the rules, to the end.
  for (let turn = 0; ; turn += 1) {
    check(turn < 20, 'the Chomp game ends within 20 turns');
    if (await waitForTurnOrEndOf(page, 'button.bite')) break;
    view = await settled(page, id);
    const columns = view.board.columns;
    check(sameJson(await columnsOn(page), columns), `the grid shows the API's columns ${columns}, got ${await columnsOn(page)}`);
    // The top square of the rightmost column that has more than the poison.
    const column = columns.findLastIndex((height, i) => height > (i === 0 ? 1 : 0)) + 1;
    const row = columns[column - 1];
    expected = afterBite(columns, column, row);
    const before = await logCount(page);
    await square(page, column, row).click();
    await waitForText(page, '#selection-text', new RegExp(`^Bite column ${column}, row ${row}, eating 1 square\\?$`));
    await clickAgain(page, square(page, column, row));
    await waitForLog(page, before + 1);
    view = await settled(page, id);
    check(numbers(view.moves[before].after) === expected.join(), `biting column ${column}, row ${row} leaves ${expected}, got ${view.moves[before].after}`);
  }
  view = await settled(page, id);
  check(view.over && sameJson(view.board.columns.filter((n) => n > 0), [1]), `the game ends with the poisoned square alone, got ${JSON.stringify(view.board)}`);
  check(sameJson(await columnsOn(page), view.board.columns), 'the grid shows the poisoned square alone');
  const headline = await text(page, '#result-title');
  check(headline === (view.winner === 'first' ? 'You win!' : 'The computer wins!'), `the result names the API's winner, got ${JSON.stringify(headline)}`);
  await waitForText(page, '#result-detail', /made the last move\. Normal: whoever makes the last move wins\./);
  await waitIn(page, 'the review', () => document.querySelectorAll('#review li').length === 2);
  checkNoProblems(page);
  await context.close();

  // The bar on a phone and on a desktop, with a bite chosen.
  for (const [viewport, name] of [[PHONE, 'phone-chomp.png'], [DESKTOP, 'desktop-chomp.png']]) {
    const screen = await browser.newContext({ viewport, isMobile: viewport === PHONE, hasTouch: viewport === PHONE, deviceScaleFactor: viewport === PHONE ? 2 : 1 });
    const shot = await newPage(screen, `chomp on ${name.split('-')[0]}`);
    await openApiGame(shot, { rules: 'chomp', position: [6, 6, 5, 5, 3, 2, 2], mode: 'computer', level: 'hard' });
    await waitForText(shot, '#status', /^Your turn\.$/);
    await checkNoHorizontalScroll(shot, `a Chomp bar on a ${name.split('-')[0]}`);
    await square(shot, 3, 3).click();
    await waitForText(shot, '#selection-text', /^Bite column 3, row 3/);
    await shot.mouse.move(0, 0);
    await shot.evaluate(() => window.scrollTo(0, 0));
    await screenshot(shot, name);
    checkNoProblems(shot);
    await screen.close();
  }
}

/** Waits until this page may press a `selector` button of the board or the game is over; true when over. */
async function waitForTurnOrEndOf(page, selector) {
  return waitIn(
    page,
    'its turn or the end of the game',
    (sel) => {
      if (!document.getElementById('result').hidden) return 'over';
      return document.querySelector(`#board ${sel}:not([aria-disabled]):not(:disabled)`) ? 'turn' : null;
    },
    selector,
  ).then((state) => state === 'over');
}

// ------------------------------------------------------ the page's modules

/** The modules under crates/web/assets and what each imports (resolved). */
function moduleGraph() {
  const assets = path.join(ROOT, 'crates', 'web', 'assets');
  const graph = new Map();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.js')) {
        const source = fs.readFileSync(file, 'utf8');
        const imports = [...source.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'/gm)].map((m) => path.relative(assets, path.resolve(dir, m[1])));
        graph.set(path.relative(assets, file), { imports, source });
      }
    }
  };
  walk(assets);
  return graph;
}

/** (0) The page's modules: no import cycle, no exported variable, one owner of the state. */
async function moduleStructure() {
  const graph = moduleGraph();
  check(graph.has('app.js') && graph.has('controller.js'), 'the page has its entry point and its controller');
  for (const [name, { imports }] of graph) {
    for (const target of imports) check(graph.has(target), `${name} imports ${target}, which is not there`);
  }
  const done = new Set();
  const visit = (name, trail) => {
    const at = trail.indexOf(name);
    check(at < 0, `the page's modules import one another in a cycle: ${[...trail.slice(at), name].join(' → ')}`);
    if (done.has(name)) return;
    for (const next of graph.get(name).imports) visit(next, [...trail, name]);
    done.add(name);
  };
  for (const name of graph.keys()) visit(name, []);
  for (const [name, { source, imports }] of graph) {
    check(!/^export\s+(let|var)\s/m.test(source), `${name} exports a variable: shared mutable state`);
    if (name !== 'app.js') check(!imports.includes('controller.js'), `${name} imports the controller: views get data and callbacks instead`);
  }
  const boards = [...graph.keys()].filter((n) => n.startsWith(`boards${path.sep}`) && !/(index|common)\.js$/.test(n));
  check(boards.length >= 6, `one renderer module per board kind, got ${boards}`);
  const kinds = ['heaps', 'pairs', 'stairs', 'rows', 'fibonacci', 'grid'];
  for (const kind of kinds) check(graph.has(path.join('boards', `${kind}.js`)), `a renderer for board kind ${kind}`);
  // No rule set is named in the page's code: it knows them through the API.
  // (Fibonacci Nim's board kind is called `fibonacci` too: not looked for.)
  const ruleIds = /['"`](nim|kayles|dawsons-kayles|grundy|lasker|octal|subtraction|all-but|take-limit|moore|wythoff|staircase|northcott|chomp)['"`:]/;
  for (const [name, { source }] of graph) {
    const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    check(!/isNim/.test(code), `${name} asks whether a game is Nim`);
    const hit = ruleIds.exec(code);
    check(!hit, `${name} names the rule set ${hit && hit[1]}`);
  }
}

// --------------------------------------------------------------------- main

async function main() {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Failure(`no browser at ${CHROMIUM}: install Debian's chromium (apt-get install chromium) or set BOUTON_CHROMIUM`);
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bouton-e2e-'));
  // A fresh profile and home directory: nothing of the user's browser is read.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    env: { ...process.env, HOME: profile, XDG_CONFIG_HOME: path.join(profile, 'config'), XDG_CACHE_HOME: path.join(profile, 'cache') },
  });
  const tests = [
    ['the page\'s modules: no import cycle, no shared mutable state, no rule set named', moduleStructure],
    ['plays a whole game against the computer with the mouse', mouseGame],
    ['plays a whole game with the keyboard only', keyboardGame],
    ['plays online between two browsers, with a watcher', onlineGame],
    [`fits a phone${TAKE_SCREENSHOTS ? ' and takes screenshots' : ''}`, layoutAndScreenshots],
    ['plays Kayles against the computer: a run inside a row, a typed illegal move, a hint', kaylesGame],
    ['plays Northcott’s game and Wythoff’s game with the mouse', boardGames],
    ['sets up a subtraction game with its own parameter', setupOtherRules],
    ['plays a hexadecimal code: a typed move that leaves three heaps', hexadecimalGame],
    [`plays Chomp to the end by clicking squares${TAKE_SCREENSHOTS ? ' and takes screenshots' : ''}`, chompGame],
  ];
  let failed = 0;
  try {
    for (const [name, test] of tests) {
      const started = Date.now();
      try {
        await test(browser);
        console.log(`ok - ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      } catch (error) {
        failed += 1;
        const message = error instanceof Failure ? error.message : error.stack || String(error);
        console.log(`not ok - ${name}\n  ${message.replace(/\n/g, '\n  ')}`);
        for (const page of pages.splice(0)) {
          if (page.isClosed()) continue;
          const file = path.join(os.tmpdir(), `bouton-e2e-failure-${page.label.replace(/\W+/g, '-')}.png`);
          if (await page.screenshot({ path: file }).then(() => true, () => false)) console.log(`  screenshot of ${page.label}: ${file}`);
          await page.context().close().catch(() => {});
        }
      }
      pages.length = 0;
    }
  } finally {
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  if (failed) {
    console.error(`e2e: FAILED: ${failed} of ${tests.length} browser tests failed (see above)`);
    process.exit(1);
  }
  console.log(`e2e: all ${tests.length} browser tests passed against ${base}`);
}

main().catch((error) => {
  console.error(`e2e: FAILED: ${error instanceof Failure ? error.message : error.stack || error}`);
  process.exit(1);
});
