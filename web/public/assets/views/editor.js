// #/new and #/post/{id}/edit. An edit names the version it started from (PUT ... {version});
// if someone saved in between, the server answers 409 VERSION_CONFLICT with currentVersion.
// Then we show THEIR change (server diff from our base to their version) beside OURS (our
// text against the same base), keep our text in the editor to merge in, and the next save
// names their version.

import { api, categories } from '../api.js';
import { h, errorBox, announce } from '../dom.js';
import { session, loginFirst } from '../session.js';
import { lineDiff, parseUnified, diffView } from '../diff.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function editorView(id) {
  if (!session.user) {
    loginFirst();
    return h('section', {}, h('h1', {}, '로그인이 필요합니다'));
  }
  const params = new URLSearchParams(location.hash.split('?')[1] || '');
  let cats = [];
  let base = { title: '', content: '', categoryId: params.get('categoryId') ? Number(params.get('categoryId')) : null, version: null };
  try {
    cats = await categories().catch(() => []);
    if (id) base = await api(`/posts/${id}`);
  } catch (e) {
    return h('section', {}, h('h1', {}, '문서를 열 수 없습니다'), errorBox(e));
  }

  const title = h('input', { id: 'ed-title', name: 'title', required: true, maxlength: 512, value: base.title, autocomplete: 'off' });
  const category = h('select', { id: 'ed-category', name: 'categoryId' },
    h('option', { value: '' }, '(분류 없음)'),
    categoryOptions(cats, base.categoryId));
  const content = h('textarea', { id: 'ed-content', name: 'content', rows: 18, required: true, spellcheck: 'false' });
  content.value = base.content;
  const message = h('div', { class: 'form-message', 'aria-live': 'assertive' });
  const conflict = h('section', { class: 'conflict', hidden: true, 'aria-labelledby': 'conflict-title' });
  const save = h('button', { type: 'submit' }, id ? '저장' : '만들기');

  const form = h('form', { class: 'editor', novalidate: true },
    conflict,
    h('div', { class: 'field' }, h('label', { for: 'ed-title' }, '제목'), title),
    h('div', { class: 'field' }, h('label', { for: 'ed-category' }, '분류'), category),
    h('div', { class: 'field' }, h('label', { for: 'ed-content' }, '본문'),
      h('p', { class: 'hint', id: 'ed-content-hint' }, '빈 줄로 문단을 나눕니다.'), content),
    message,
    h('div', { class: 'actions' }, save,
      h('a', { href: id ? `#/post/${id}` : '#/', class: 'button secondary' }, '취소')));
  content.setAttribute('aria-describedby', 'ed-content-hint');

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    message.replaceChildren();
    if (!title.value.trim()) {
      message.replaceChildren(errorBox(new Error('제목을 입력하세요.')));
      title.focus();
      return;
    }
    const body = { title: title.value, content: content.value, categoryId: category.value ? Number(category.value) : null };
    save.disabled = true;
    try {
      if (!id) {
        const created = await api('/posts', { method: 'POST', body });
        announce('문서를 만들었습니다.');
        location.hash = `#/post/${created.id}`;
        return;
      }
      await api(`/posts/${id}`, { method: 'PUT', body: { ...body, version: base.version } });
      announce('저장했습니다.');
      location.hash = `#/post/${id}`;
    } catch (err) {
      if (err.status === 409 && err.code === 'VERSION_CONFLICT') {
        base = await showConflict(id, base, body, err.problem.currentVersion, { conflict, title, category, content, cats });
        save.textContent = '병합한 내용 저장';
      } else if (err.status === 401) {
        loginFirst();
      } else {
        message.replaceChildren(errorBox(err));
      }
    } finally {
      save.disabled = false;
    }
  });

  return h('section', { class: 'editor-page' },
    h('h1', {}, id ? `편집: ${base.title}` : '새 문서'),
    form);
}

function categoryOptions(cats, selected) {
  const byId = new Map(cats.map((c) => [c.id, c]));
  return cats.map((c) => h('option', { value: c.id, selected: c.id === selected },
    c.parentId && byId.get(c.parentId) ? `${byId.get(c.parentId).name} › ${c.name}` : c.name));
}

/** Their version; a replica may be a moment behind the 409 we just got, so retry briefly. */
async function theirVersion(id, version) {
  for (let i = 0; ; i++) {
    try {
      return await api(`/posts/${id}/revisions/${version}`);
    } catch (e) {
      if (e.status !== 404 || i >= 10) throw e;
      await sleep(300);
    }
  }
}

async function showConflict(id, base, mine, currentVersion, ui) {
  const theirs = await theirVersion(id, currentVersion);
  let theirLines;
  try {
    const d = await api(`/posts/${id}/diff?from=${base.version}&to=${currentVersion}`);
    theirLines = parseUnified(d.unified);
  } catch {
    theirLines = lineDiff(base.content, theirs.content); // e.g. DIFF_TOO_LARGE
  }
  const myLines = lineDiff(base.content, mine.content);
  const catName = (cid) => ui.cats.find((c) => c.id === cid)?.name ?? '(분류 없음)';

  // Fields only they changed take their value; fields we both changed stay ours to decide.
  if (mine.title === base.title) ui.title.value = theirs.title;
  if ((mine.categoryId ?? null) === (base.categoryId ?? null)) ui.category.value = theirs.categoryId ?? '';

  const useTheirs = h('button', { type: 'button', class: 'secondary' }, '상대 본문으로 바꾸기');
  const useMine = h('button', { type: 'button', class: 'secondary' }, '내 본문으로 되돌리기');
  useTheirs.addEventListener('click', () => { ui.content.value = theirs.content; ui.content.focus(); });
  useMine.addEventListener('click', () => { ui.content.value = mine.content; ui.content.focus(); });

  // (replaceChildren would print a null as "null": filter the optional parts out)
  ui.conflict.replaceChildren(...[
    h('h2', { id: 'conflict-title', tabindex: '-1' }, '다른 사람이 먼저 저장했습니다'),
    h('p', { role: 'alert' },
      `${theirs.authorNickname} 님이 판 ${base.version} 이후 판 ${currentVersion}을(를) 저장했습니다. `,
      '아래에서 두 변경을 비교하고, 본문을 합친 뒤 다시 저장하세요. 저장하면 판 ', String(currentVersion), ' 위에 새 판이 됩니다.'),
    theirs.title !== base.title || mine.title !== base.title
      ? h('p', {}, `제목 — 상대: “${theirs.title}” / 나: “${mine.title}”`) : null,
    (theirs.categoryId ?? null) !== (base.categoryId ?? null)
      ? h('p', {}, `분류 — 상대: ${catName(theirs.categoryId)} / 나: ${catName(mine.categoryId)}`) : null,
    h('div', { class: 'side-by-side' },
      h('div', { class: 'theirs' }, h('h3', {}, `상대의 변경 (판 ${base.version} → ${currentVersion})`),
        diffView(theirLines, { label: '상대의 변경' })),
      h('div', { class: 'mine' }, h('h3', {}, `내 변경 (판 ${base.version} → 저장 안 됨)`),
        diffView(myLines, { label: '내 변경', context: 3 }))),
    h('div', { class: 'actions' }, useTheirs, useMine),
  ].filter(Boolean));
  ui.conflict.hidden = false;
  ui.conflict.querySelector('h2').focus();
  return { ...base, version: currentVersion, title: theirs.title, content: theirs.content, categoryId: theirs.categoryId };
}
