// The pages' pure pieces, run inside Chromium on the modules nginx serves: the snippet
// highlighter (the one place server markup is accepted), keystrokes of Hangul, the line diff.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, newPage } from './lib.mjs';

let browser;
let page;
before(async () => {
  browser = await launch();
  page = await newPage(browser);
  await page.goto(`${BASE}/`);
});
after(async () => browser?.close());

test('a snippet keeps only <b> as highlight; everything else is text', async () => {
  const out = await page.evaluate(async () => {
    const { highlighted } = await import('/assets/dom.js');
    const render = (s) => {
      const d = document.createElement('div');
      d.append(highlighted(s));
      return { html: d.innerHTML, text: d.textContent, marks: [...d.querySelectorAll('mark')].map((m) => m.textContent), elements: d.querySelectorAll('*').length };
    };
    return {
      plain: render('경복궁과 <b>북촌</b> 한옥마을 &lt;script&gt;alert(1)&lt;/script&gt; &amp;lt;'),
      raw: render('<img src=x onerror=alert(1)><b>a</b><script>x</script>'),
      unclosed: render('<b>열린 채'),
      nested: render('<b><b>x</b></b>'),
      empty: render(null),
    };
  });
  assert.deepEqual(out.plain.marks, ['북촌']);
  assert.equal(out.plain.text, '경복궁과 북촌 한옥마을 <script>alert(1)</script> &lt;');
  assert.equal(out.plain.elements, 1);
  // markup the server would never send still becomes text, not elements
  assert.equal(out.raw.elements, 1);
  assert.deepEqual(out.raw.marks, ['a']);
  assert.match(out.raw.text, /<img src=x onerror=alert\(1\)>/);
  assert.equal(out.unclosed.elements, 0);
  assert.equal(out.unclosed.text, '열린 채');
  assert.ok(out.nested.elements <= 1);
  assert.equal(out.empty.text, '');
});

test('keystrokes split syllables, compound vowels and finals like the autocomplete keys', async () => {
  const ks = await page.evaluate(async () => {
    const { keystrokes } = await import('/assets/hangul.js');
    return ['서울', '닭', '과', '의자', 'abc 한', 'ㄳ'].map(keystrokes);
  });
  assert.deepEqual(ks, ['ㅅㅓㅇㅜㄹ', 'ㄷㅏㄹㄱ', 'ㄱㅗㅏ', 'ㅇㅡㅣㅈㅏ', 'abc ㅎㅏㄴ', 'ㄱㅅ']);
});

test('the line diff keeps common lines and marks the changed ones', async () => {
  const d = await page.evaluate(async () => {
    const { lineDiff, parseUnified } = await import('/assets/diff.js');
    return {
      small: lineDiff('가\n나\n다\n라', '가\n나나\n다\n라\n마').map((l) => l.op + l.text),
      same: lineDiff('a\nb', 'a\nb').every((l) => l.op === ' '),
      unified: parseUnified('--- a\n+++ b\n@@ -1,2 +1,2 @@\n 가\n-나\n+나나\n').map((l) => l.op + l.text),
    };
  });
  assert.deepEqual(d.small, [' 가', '-나', '+나나', ' 다', ' 라', '+마']);
  assert.equal(d.same, true);
  assert.deepEqual(d.unified, ['@@@ -1,2 +1,2 @@', ' 가', '-나', '+나나']);
});
