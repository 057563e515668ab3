// Shared by the browser tests and `make screenshots`: the system Chromium (Debian's package;
// browser downloads are not possible here), a unique run id, Hangul helpers, API polling.
import { accessSync, constants, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const BASE = (process.env.HANWIKI_URL || 'http://localhost:8080').replace(/\/$/, '');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const SHOTS = process.env.HANWIKI_SCREENSHOTS || '';

export async function launch() {
  try {
    accessSync(CHROMIUM, constants.X_OK);
  } catch {
    throw new Error(`No Chromium at ${CHROMIUM}: run \`make install\` (apt package chromium) or set CHROMIUM=/path/to/chromium`);
  }
  // An ordinary launch gets a new empty profile directory from Playwright (removed on close);
  // it refuses --user-data-dir, which is for launchPersistentContext (one context only, and
  // the conflict test needs two).
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--lang=ko-KR'],
  });
}

export async function newPage(browser, { width = 1280, height = 900 } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, locale: 'ko-KR', timezoneId: 'Asia/Seoul' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text()); });
  page.errors = errors;
  return page;
}

export async function shot(page, name, options = {}) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), ...options });
}

/** A run id for unique names (the database is shared and never empty). */
export const RUN = (Date.now().toString(36) + Math.random().toString(36).slice(2, 6)).slice(-9);

const CHO = 'ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ';
const JUNG = 'ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ';
export const syllable = (cho, jung, jong = 0) => String.fromCharCode(0xac00 + (cho * 21 + jung) * 28 + jong);
/** Simple syllables (plain vowels, a plain final or none): a two-stroke-per-jamo IME shows every state. */
const SIMPLE_JUNG = [0, 4, 8, 13, 18, 20]; // ㅏ ㅓ ㅗ ㅜ ㅡ ㅣ
const SIMPLE_CHO = [0, 2, 3, 5, 6, 7, 9, 11, 12, 14, 15, 16, 17, 18];
const SIMPLE_JONG = [0, 1, 4, 8, 16, 17, 21]; // none ㄱ ㄴ ㄹ ㅁ ㅂ ㅇ
const pick = (a) => a[Math.floor(Math.random() * a.length)];
export function randomWord(n) {
  let w = '';
  for (let i = 0; i < n; i++) w += syllable(pick(SIMPLE_CHO), pick(SIMPLE_JUNG), pick(SIMPLE_JONG));
  return w;
}
/** What an input method shows while the syllable is typed: ㅅ, 서, 설. */
export function compositionStates(s) {
  const code = s.charCodeAt(0) - 0xac00;
  const cho = Math.floor(code / 588);
  const jung = Math.floor((code % 588) / 28);
  const jong = code % 28;
  const states = [CHO[cho], syllable(cho, jung)];
  if (jong) states.push(s);
  return states;
}
/** The same syllable with another plain vowel (a one-jamo typo). */
export function otherVowel(s) {
  const code = s.charCodeAt(0) - 0xac00;
  const jung = Math.floor((code % 588) / 28);
  const next = SIMPLE_JUNG[(SIMPLE_JUNG.indexOf(jung) + 1) % SIMPLE_JUNG.length];
  return syllable(Math.floor(code / 588), next, code % 28);
}
export { JUNG };

/**
 * A word of `n` open syllables of ㅊㅋㅌㅍ with ㅏㅓㅗㅜ and the Latin keys that type it on the
 * dubeolsik layout (as the API's keyboard-layout rescue reads them): Nori takes such a word
 * for one unknown word, so a page titled with it is found by it.
 */
export function keyboardWord(n) {
  const initials = [[14, 'c'], [15, 'z'], [16, 'x'], [17, 'v']];
  const medials = [[0, 'k'], [4, 'j'], [8, 'h'], [13, 'n']];
  let word = '';
  let keys = '';
  for (let i = 0; i < n; i++) {
    const [cho, ck] = pick(initials);
    const [jung, vk] = pick(medials);
    word += syllable(cho, jung);
    keys += ck + vk;
  }
  return { word, keys };
}

/** Polls fn until it returns a truthy value (or throws after timeoutMs). */
export async function eventually(what, fn, timeoutMs = 15000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (${last.message})` : ''}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function apiGet(path, base = BASE) {
  const r = await fetch(`${base}/api/v1.0${path}`);
  return { status: r.status, body: await r.json().catch(() => null) };
}

// The app nodes themselves (infra/web.sh passes them), bypassing nginx. Each node indexes the
// change stream on its own, one can lag the other, and nginx picks either for the browser's
// next call: a page must be found on both before the browser is sent to find it.
export const NODES = (process.env.HANWIKI_NODES || '').split(',').filter(Boolean);

/** Polls until fn(answer) holds for GET path on every node (through nginx when no nodes are known). */
export async function eventuallyOnEveryNode(what, path, fn, timeoutMs = 15000) {
  const bases = NODES.length ? NODES : [BASE];
  return eventually(what, async () => {
    for (const base of bases) {
      if (!fn(await apiGet(path, base))) return false;
    }
    return true;
  }, timeoutMs);
}

const AXE = new URL('./node_modules/axe-core/axe.min.js', import.meta.url);
let axeSource;
/**
 * axe-core's WCAG 2.1 A/AA rules on the page as it is; returns the serious and critical
 * violations as "rule: target" lines. Evaluated over the driver's channel, which the page's
 * Content-Security-Policy (no inline or injected scripts) does not apply to.
 */
export async function accessibilityViolations(page) {
  axeSource ??= (await import('node:fs')).readFileSync(AXE, 'utf8');
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  });
  return violations;
}
