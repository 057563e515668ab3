// The pages in a real browser (Debian's Chromium, headless, driven by playwright-core) against
// the running stack through nginx: one reader's and editor's journey, in order. Names are
// unique per run (the database is shared and never empty). With HANWIKI_SCREENSHOTS=DIR the
// same journey saves a screenshot of each page (`make screenshots`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, RUN, launch, newPage, shot, randomWord, compositionStates, otherVowel, eventually, apiGet,
  eventuallyOnEveryNode, accessibilityViolations, keyboardWord,
} from './lib.mjs';

const username = `web${RUN}`;
const nickname = `시험${RUN.slice(-5)}`;
const password = 'Seoul-2025web';
// A word no other page has, and no other title starts like (its first syllable and the open
// second one the autocomplete step types): search and autocomplete then find only ours, also
// on a stack seeded with hundreds of thousands of pages, where a random word of common
// syllables often begins a real one (호송닙: 호송).
const word = await uniqueWord();
const title = `${word} 여행기`;
const body = [
  `${word} 마을은 서울 경복궁에서 북촌 한옥마을로 가는 길에 있다.`,
  '',
  '돌담길을 따라 걸으면 작은 찻집이 나온다.',
  '',
  '<img src=x onerror="window.__xss=1"> <script>window.__xss=1</script> 같은 글자는 글자로만 보여야 한다.',
  '',
  // The word once more, alone at the end, as the query has it: Nori reads an unknown word by its
  // context, and before 마을은 it may read it otherwise than alone (CI: 몽즙마 was found by its
  // title, but not one mark in the body). Known limitation, issue 16's note of session 9.
  word,
].join('\n');

async function uniqueWord() {
  for (let attempt = 0; attempt < 200; attempt++) {
    const w = randomWord(3);
    const typed = w[0] + compositionStates(w[1])[1];
    const suggested = await apiGet(`/posts/autocomplete?prefix=${encodeURIComponent(typed)}`);
    const found = await apiGet(`/posts/search?q=${encodeURIComponent(w)}`);
    if (suggested.status === 200 && suggested.body?.data?.length === 0
        && found.status === 200 && found.body?.data?.results?.content?.length === 0) return w;
  }
  throw new Error('no unused three-syllable word in 200 tries (is the stack up?)');
}

let browser;
let page;
let postId;
let categoryName;

before(async () => {
  browser = await launch();
  page = await newPage(browser);
});
after(async () => {
  await browser?.close();
});

async function signIn(p) {
  await p.goto(`${BASE}/#/login`);
  await p.getByLabel('아이디').fill(username);
  await p.getByLabel('비밀번호').fill(password);
  await p.getByRole('button', { name: '로그인' }).click();
  await p.locator('#account .who').filter({ hasText: nickname }).waitFor();
}

test('the pages are served by nginx on the same origin as the API, with a CSP', async () => {
  const r = await fetch(`${BASE}/`);
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type'), /text\/html/);
  assert.match(r.headers.get('content-security-policy') || '', /script-src 'self'/);
  const js = await fetch(`${BASE}/assets/app.js`, { headers: { 'Accept-Encoding': 'gzip' } });
  assert.equal(js.status, 200);
  assert.match(js.headers.get('content-type'), /javascript/);
  // the API still answers beside them, and an unknown path is still the API's problem+json
  assert.equal((await fetch(`${BASE}/api/v1.0/categories`)).status, 200);
  const missing = await fetch(`${BASE}/no-such-page`);
  assert.equal(missing.status, 404);
  assert.match(missing.headers.get('content-type'), /problem\+json/);
});

test('sign up', async () => {
  await page.goto(`${BASE}/`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await shot(page, '01-newest-pages');
  await page.getByRole('link', { name: '가입하기' }).click();
  await page.getByLabel('아이디').fill(username);
  await page.getByLabel('별명').fill(nickname);
  await page.getByLabel('비밀번호').fill('short');
  await page.getByRole('button', { name: '가입하기' }).click();
  // the server's rule, shown as an alert next to the form
  await page.getByRole('alert').filter({ hasText: 'password' }).waitFor();
  await page.getByLabel('비밀번호').fill(password);
  await shot(page, '02-signup');
  assert.deepEqual(await accessibilityViolations(page), []);
  await page.getByRole('button', { name: '가입하기' }).click();
  await page.locator('#account .who').filter({ hasText: nickname }).waitFor();
  assert.ok(await page.getByRole('button', { name: '로그아웃' }).isVisible());
});

test('create a page', async () => {
  await page.getByRole('link', { name: '새 문서' }).click();
  await page.getByLabel('제목').fill(title);
  const select = page.getByLabel('분류');
  const options = await select.locator('option').allTextContents();
  categoryName = options.find((o) => o.includes('여행')) || options[1];
  await select.selectOption({ label: categoryName });
  categoryName = categoryName.split(' › ').pop();
  await page.getByLabel('본문').fill(body);
  await page.getByRole('button', { name: '만들기' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  postId = Number(new URL(page.url()).hash.match(/#\/post\/(\d+)/)[1]);
  assert.ok(postId > 0);
  // page text is text: the markup in the body is shown, never run
  const content = page.locator('.post .content');
  assert.match(await content.innerText(), /<img src=x onerror=/);
  assert.equal(await content.locator('img, script').count(), 0);
  assert.equal(await page.evaluate(() => window.__xss), undefined);
  assert.doesNotMatch(await page.locator('main').innerText(), /\b(null|undefined|NaN)\b/);
  await shot(page, '03-page');
  assert.deepEqual(await accessibilityViolations(page), []);
});

test('find it by autocomplete while typing Korean (during IME composition)', async () => {
  // wait until the change stream has filed the title (the UI asks once per keystroke)
  await eventuallyOnEveryNode('autocomplete knows the new title', `/posts/autocomplete?prefix=${encodeURIComponent(word.slice(0, 2))}&ids=true`,
    (r) => r.body?.data?.some((s) => s.id === postId));
  await page.goto(`${BASE}/#/`);
  const box = page.getByRole('combobox', { name: '위키 검색' });
  await box.click();
  const cdp = await page.context().newCDPSession(page);
  // first syllable: composed key by key, then committed
  for (const state of compositionStates(word[0])) {
    await cdp.send('Input.imeSetComposition', { text: state, selectionStart: state.length, selectionEnd: state.length });
  }
  await cdp.send('Input.insertText', { text: word[0] });
  // second syllable: initial consonant and vowel typed, syllable still OPEN (not committed)
  const open = compositionStates(word[1])[1];
  await cdp.send('Input.imeSetComposition', { text: open, selectionStart: 1, selectionEnd: 1 });
  const option = page.getByRole('option', { name: title });
  await option.waitFor({ timeout: 5000 });
  // it was asked by keystrokes of the open syllable (e.g. 서ㅇㅜ), not by a finished word
  const asked = await box.getAttribute('data-suggested-for');
  assert.equal(asked[0], word[0]);
  assert.match(asked.slice(1), /^[\u3131-\u318e]+$/, `asked with jamo, got ${asked}`);
  assert.equal(await box.getAttribute('aria-expanded'), 'true');
  await shot(page, '04-autocomplete-composing');
  await cdp.send('Input.insertText', { text: open });
  await cdp.detach();
  // committed: asked again with the finished text; then the keyboard, down to our title, Enter
  await eventually('suggestions for the committed text', async () => (await box.getAttribute('data-suggested-for')) === word[0] + open, 5000);
  await option.waitFor();
  const names = await page.getByRole('option').allTextContents();
  for (let i = 0; i <= names.findIndex((n) => n.startsWith(title)); i++) await box.press('ArrowDown');
  await box.press('Enter');
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  assert.equal(new URL(page.url()).hash, `#/post/${postId}`);
});

test('find it by search: highlighted snippet rendered safely, facets, did-you-mean', async () => {
  await eventuallyOnEveryNode('search finds the new page', `/posts/search?q=${encodeURIComponent(word)}`,
    (r) => r.body?.data?.results?.content?.some((h) => h.id === postId));
  const box = page.getByRole('combobox', { name: '위키 검색' });
  await box.fill(word);
  await page.getByRole('button', { name: '검색', exact: true }).click();
  const hit = page.locator('.hit').filter({ has: page.getByRole('link', { name: title }) });
  await hit.waitFor();
  // the analyzer may mark the word whole or in pieces, and drops a piece it reads as an ending
  // (낭눌소: 낭, 눌 marked, 소 not): there are marks, and every mark is a piece of the word
  const marks = await hit.locator('mark').allInnerTexts();
  assert.ok(marks.length > 0 && marks.every((m) => word.includes(m)), `marks ${JSON.stringify(marks)} are pieces of ${word}`);
  assert.equal(await page.locator('.hits img, .hits script').count(), 0);
  assert.deepEqual(await accessibilityViolations(page), []);
  // category facet with its count, and it filters
  const facet = page.locator('.facets a').filter({ hasText: categoryName });
  assert.match(await facet.locator('.count').innerText(), /^[1-9][0-9,]*/);
  await facet.click();
  await page.waitForURL(/categoryId=\d+/);
  // (the old results stay on screen until the filtered answer is rendered: wait for that)
  await page.locator('.facets a[aria-current="true"]').filter({ hasText: categoryName }).waitFor();
  await hit.waitFor();
  assert.match(await page.getByRole('heading', { level: 1 }).innerText(), new RegExp(categoryName));
  // the help popover on operators opens and closes with the keyboard
  await page.getByRole('button', { name: '검색 연산자 도움말' }).click();
  await page.getByRole('heading', { name: '검색 연산자' }).waitFor();
  await shot(page, '06-search-help-popover');
  await page.keyboard.press('Escape');
  assert.equal(await page.getByRole('heading', { name: '검색 연산자' }).isVisible(), false);
  // a one-jamo typo of the word gets our word as "did you mean". A typo can happen to be a
  // real word that finds pages (then there is rightly no suggestion): try a few.
  const typos = [word[0] + otherVowel(word[1]) + word[2], word[0] + word[1] + otherVowel(word[2]),
    word[0] + otherVowel(otherVowel(word[1])) + word[2]];
  let suggested = null;
  for (const typo of typos) {
    const r = await apiGet(`/posts/search?q=${encodeURIComponent(typo)}`);
    if (r.body?.data?.suggestion === word) { suggested = typo; break; }
  }
  assert.ok(suggested, `no typo of ${word} among ${typos} got it as the suggestion`);
  await page.goto(`${BASE}/#/search?q=${encodeURIComponent(suggested)}`);
  const dym = page.locator('a.did-you-mean');
  await dym.waitFor();
  assert.equal(await dym.innerText(), word);
  await shot(page, '06-did-you-mean');
  await dym.click();
  await hit.waitFor();
});

test('the keyboard-layout rescue says what it searched, and its link searches the keys as typed', async () => {
  // A page titled with a word typed in Latin mode: the keys find nothing, the word finds it.
  const { word: hangul, keys } = keyboardWord(5);
  const created = await page.evaluate(async (t) => {
    const r = await fetch('/api/v1.0/posts', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: t, content: t }) });
    return { status: r.status, id: (await r.json()).data?.id };
  }, hangul);
  assert.equal(created.status, 201);
  await eventuallyOnEveryNode('the keys are rescued to the new page', `/posts/search?q=${keys}`,
    (r) => r.body?.data?.rewrittenFrom === keys && r.body.data.results.content.some((h) => h.id === created.id));
  await page.goto(`${BASE}/#/search?q=${keys}`);
  const notice = page.locator('.notice');
  await notice.filter({ hasText: hangul }).waitFor();
  await page.locator('.hit').filter({ has: page.getByRole('link', { name: hangul }) }).waitFor();
  await shot(page, '05-keyboard-rescue');
  // "search instead for <keys>": the same text, searched literally (exact=true), no rescue
  await notice.getByRole('link', { name: `‘${keys}’(으)로 검색` }).click();
  await page.waitForURL(/exact=true/);
  await page.locator('.empty').waitFor();
  assert.equal(await page.locator('.notice').filter({ hasText: hangul }).count(), 0, 'no "showing results for" on a literal search');
  assert.equal(await page.getByRole('link', { name: hangul }).count(), 0);
  assert.match(await page.getByRole('heading', { level: 1 }).innerText(), new RegExp(`‘${keys}’`));
});

// The same assertions with and without `make screenshots`; only the PNG files differ.
test('search page with facets on a broad query, at desktop and phone width', async () => {
  const broad = '서울'; // our page's first line has it: there is at least one hit in any database
  await eventually('a broad search finds pages', async () => {
    const r = await apiGet(`/posts/search?q=${encodeURIComponent(broad)}`);
    return r.body?.data?.results?.content?.length > 0;
  });
  await page.goto(`${BASE}/#/search?q=${encodeURIComponent(broad)}`);
  // a hash navigation: the previous results stay until the new answer is rendered
  await page.getByRole('heading', { level: 1, name: `‘${broad}’ 검색 결과` }).waitFor();
  const hits = await page.locator('.hits .hit').count();
  assert.ok(hits >= 1 && hits <= 10, `one page of hits, got ${hits}`);
  const counts = await page.locator('.facets .count').allInnerTexts();
  assert.ok(counts.length >= 1, 'category facets with counts');
  for (const c of counts) assert.match(c, /^[1-9][0-9,]*/);
  assert.deepEqual(await accessibilityViolations(page), []);
  await shot(page, '05-search', { fullPage: true });
  const phone = await newPage(browser, { width: 390, height: 844 });
  await phone.goto(`${BASE}/#/search?q=${encodeURIComponent(broad)}`);
  await phone.getByRole('heading', { level: 1, name: `‘${broad}’ 검색 결과` }).waitFor();
  assert.ok(await phone.getByRole('combobox', { name: '위키 검색' }).isVisible(), 'the search box fits a phone');
  assert.ok(await phone.locator('.hits .hit').first().isVisible());
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling at phone width (${overflow}px too wide)`);
  await shot(phone, '12-phone-search', { fullPage: false });
  assert.deepEqual(phone.errors, []);
  await phone.context().close();
});

test('edit it', async () => {
  await page.goto(`${BASE}/#/post/${postId}`);
  await page.getByRole('link', { name: '편집' }).click();
  const content = page.getByLabel('본문');
  await content.waitFor();
  await content.fill(`${body}\n\n처음 고친 줄.`);
  await page.getByRole('button', { name: '저장' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  assert.match(await page.locator('.post .content').innerText(), /처음 고친 줄/);
  assert.match(await page.locator('.post .meta').innerText(), /판 2/);
});

test('a version conflict between two browsers is shown as a diff and merged', async () => {
  const other = await newPage(browser);
  await signIn(other);
  // both open the editor on version 2
  await page.goto(`${BASE}/#/post/${postId}/edit`);
  await other.goto(`${BASE}/#/post/${postId}/edit`);
  const mine = page.getByLabel('본문');
  const theirs = other.getByLabel('본문');
  await mine.waitFor();
  await theirs.waitFor();
  const base = await mine.inputValue();
  // the other browser saves first
  await theirs.fill(base.replace('돌담길을 따라', '비 오는 날 돌담길을 따라'));
  await other.getByRole('button', { name: '저장' }).click();
  await other.getByRole('heading', { level: 1, name: title }).waitFor();
  // ours, started from version 2, conflicts
  await mine.fill(`${base}\n\n두 번째 브라우저가 아닌 쪽에서 더한 줄.`);
  await page.getByRole('button', { name: '저장' }).click();
  const conflict = page.locator('.conflict');
  await conflict.getByRole('heading', { name: '다른 사람이 먼저 저장했습니다' }).waitFor();
  // their change as a diff beside ours
  const theirDiff = conflict.locator('.theirs .diff');
  assert.match((await theirDiff.locator('.add').allInnerTexts()).join('\n'), /비 오는 날 돌담길을 따라/);
  assert.match((await theirDiff.locator('.del').allInnerTexts()).join('\n'), /돌담길을 따라/);
  assert.match((await conflict.locator('.mine .diff .add').allInnerTexts()).join('\n'), /더한 줄/);
  assert.doesNotMatch(await conflict.innerText(), /\b(null|undefined|NaN)\b/);
  await shot(page, '07-editor-conflict', { fullPage: true });
  assert.deepEqual(await accessibilityViolations(page), []);
  // merge: their line and ours, then save against their version
  await mine.fill((await mine.inputValue()).replace('돌담길을 따라', '비 오는 날 돌담길을 따라'));
  await page.getByRole('button', { name: '병합한 내용 저장' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  const text = await page.locator('.post .content').innerText();
  assert.match(text, /비 오는 날 돌담길을 따라/);
  assert.match(text, /더한 줄/);
  assert.match(await page.locator('.post .meta').innerText(), /판 4/);
  await other.context().close();
});

test('history, newest first, and a diff between any two revisions', async () => {
  await page.getByRole('link', { name: '역사 보기' }).click();
  await page.getByRole('heading', { level: 1, name: `역사: ${title}` }).waitFor();
  const versions = await page.locator('tbody th').allInnerTexts();
  assert.deepEqual(versions, ['판 4', '판 3', '판 2', '판 1']);
  await shot(page, '08-history');
  assert.deepEqual(await accessibilityViolations(page), []);
  await page.getByLabel('판 1부터').check();
  await page.getByLabel('판 4까지').check();
  await page.getByRole('button', { name: '고른 두 판 비교' }).click();
  await page.getByRole('heading', { level: 1, name: '판 1 → 판 4 비교' }).waitFor();
  const added = await page.locator('.diff .add').allInnerTexts();
  assert.ok(added.some((l) => l.includes('처음 고친 줄')), added.join('|'));
  assert.ok(added.some((l) => l.includes('더한 줄')), added.join('|'));
  assert.match(await page.locator('.summary').innerText(), /\+\d+줄/);
  await shot(page, '09-diff', { fullPage: true });
  assert.deepEqual(await accessibilityViolations(page), []);
});

test('like and unlike', async () => {
  await page.goto(`${BASE}/#/post/${postId}`);
  const like = page.getByRole('button', { name: /좋아요/ });
  await like.waitFor();
  assert.equal(await like.getAttribute('aria-pressed'), 'false');
  await like.click();
  await page.locator('button.like[aria-pressed="true"]').waitFor();
  assert.match(await like.innerText(), /1/);
  await like.click();
  await page.locator('button.like[aria-pressed="false"]').waitFor();
  assert.match(await like.innerText(), /0/);
  await like.click();
  await page.locator('button.like[aria-pressed="true"]').waitFor();
});

test('newest pages and category browsing', async () => {
  await page.getByRole('link', { name: '분류' }).first().click();
  await page.getByRole('heading', { level: 1, name: '분류' }).waitFor();
  await shot(page, '10-categories');
  await page.locator('.categories a').filter({ hasText: new RegExp(`^${categoryName}$`) }).first().click();
  await page.getByRole('heading', { level: 1, name: `분류: ${categoryName}` }).waitFor();
  await page.getByRole('link', { name: title }).waitFor();
  await page.getByRole('link', { name: '최근 문서' }).click();
  await page.getByRole('heading', { level: 1, name: '최근 문서' }).waitFor();
  await page.getByRole('link', { name: title }).waitFor();
});

test('log out, and the token no longer works', async () => {
  await page.getByRole('button', { name: '로그아웃' }).click();
  await page.locator('#account').getByRole('link', { name: '로그인' }).waitFor();
  const me = await page.evaluate(async () => (await fetch('/api/v1.0/auth/me')).status);
  assert.equal(me, 401);
  // signed out, the editor sends to the login page
  await page.goto(`${BASE}/#/post/${postId}/edit`);
  await page.getByRole('heading', { level: 1, name: '로그인' }).waitFor();
  await shot(page, '11-login');
  assert.deepEqual(page.errors, [], 'no script errors on any page');
});
