// Newest pages (#/ and #/recent?categoryId=&page=), the category tree (#/categories) and one
// page (#/post/{id}) with its like button.

import { api, qs, categories } from '../api.js';
import { h, paragraphs, time, num, errorBox, announce } from '../dom.js';
import { session, myId, loginFirst } from '../session.js';
import { pager } from './search.js';

const SIZE = 20;

export async function recentView(params) {
  const page = Math.max(0, Number.parseInt(params.page || '0', 10) || 0);
  const categoryId = params.categoryId || null;
  let slice;
  let cats = [];
  try {
    [slice, cats] = await Promise.all([api(`/posts${qs({ categoryId, page, size: SIZE })}`), categories().catch(() => [])]);
  } catch (e) {
    return h('section', {}, h('h1', {}, '최근 문서'), errorBox(e));
  }
  const byId = new Map(cats.map((c) => [String(c.id), c]));
  const cat = categoryId ? byId.get(String(categoryId)) : null;
  const title = cat ? `분류: ${cat.name}` : params.home ? '한위키' : '최근 문서';
  return h('section', {},
    h('h1', {}, title),
    params.home ? h('p', { class: 'lead' }, '누구나 읽고, 가입하면 누구나 쓰는 한국어 위키. 최근에 만들어진 문서부터 보여 드립니다.') : null,
    cat ? h('p', {}, h('a', { href: '#/categories' }, '← 모든 분류'), ' · ', h('a', { href: `#/new?categoryId=${cat.id}` }, '이 분류에 새 문서')) : null,
    slice.content.length
      ? h('ul', { class: 'post-list' }, slice.content.map((p) => h('li', {},
        h('a', { href: `#/post/${p.id}`, class: 'title' }, p.title),
        h('span', { class: 'meta' },
          p.categoryId && byId.get(String(p.categoryId)) ? [h('a', { href: `#/recent?categoryId=${p.categoryId}` }, byId.get(String(p.categoryId)).name), ' · '] : null,
          p.authorNickname, ' · ', time(p.createdAt), ' · 조회 ', num(p.viewCount), ' · 좋아요 ', num(p.likeCount)))))
      : h('p', { class: 'empty' }, '아직 문서가 없습니다.'),
    pager(page, slice, (p) => `#/recent${qs({ categoryId, page: p || null })}`));
}

export async function categoriesView() {
  let cats;
  try {
    cats = await categories();
  } catch (e) {
    return h('section', {}, h('h1', {}, '분류'), errorBox(e));
  }
  const children = new Map();
  for (const c of cats) {
    const k = c.parentId ?? 'root';
    if (!children.has(k)) children.set(k, []);
    children.get(k).push(c);
  }
  const tree = (parent) => {
    const list = children.get(parent) || [];
    if (!list.length) return null;
    return h('ul', {}, list.map((c) => h('li', {}, h('a', { href: `#/recent?categoryId=${c.id}` }, c.name), tree(c.id))));
  };
  return h('section', { class: 'categories' }, h('h1', {}, '분류'), tree('root'));
}

export async function postView(id) {
  let post;
  let cats = [];
  try {
    [post, cats] = await Promise.all([api(`/posts/${id}`), categories().catch(() => [])]);
  } catch (e) {
    return h('section', {}, h('h1', {}, e.status === 404 ? '없는 문서입니다' : '문서를 열 수 없습니다'), errorBox(e));
  }
  const cat = cats.find((c) => String(c.id) === String(post.categoryId));
  const likeCount = h('span', { class: 'like-count' }, num(post.likeCount));
  const likeButton = h('button', { type: 'button', class: 'like', 'aria-pressed': String(!!post.liked) },
    h('span', { 'aria-hidden': 'true' }, '♥ '), '좋아요 ', likeCount);
  likeButton.addEventListener('click', async () => {
    if (!session.user) { loginFirst(); return; }
    const liked = likeButton.getAttribute('aria-pressed') === 'true';
    likeButton.disabled = true;
    try {
      const status = await api(`/posts/${id}/like`, { method: liked ? 'DELETE' : 'POST' });
      likeButton.setAttribute('aria-pressed', String(status.liked));
      likeCount.textContent = num(status.likeCount);
      announce(status.liked ? '좋아요를 눌렀습니다.' : '좋아요를 취소했습니다.');
    } catch (e) {
      // Already liked / not liked (another tab did it): show the server's state.
      if (e.code === 'ALREADY_LIKED') likeButton.setAttribute('aria-pressed', 'true');
      else if (e.code === 'NOT_LIKED') likeButton.setAttribute('aria-pressed', 'false');
      else if (e.status === 401) loginFirst();
      else announce(e.message);
    } finally {
      likeButton.disabled = false;
    }
  });
  const mine = session.user && String(myId()) === String(post.authorId);
  return h('article', { class: 'post' },
    h('header', {},
      cat ? h('p', { class: 'crumb' }, h('a', { href: `#/recent?categoryId=${cat.id}` }, cat.name)) : null,
      h('h1', {}, post.title),
      h('p', { class: 'meta' },
        h('span', {}, '글쓴이 ', h('strong', {}, post.authorNickname)), ' · ',
        h('span', {}, '고침 ', time(post.updatedAt || post.createdAt)), ' · ',
        h('span', {}, '조회 ', num(post.viewCount)), ' · ',
        h('span', {}, `판 ${post.version}`))),
    h('div', { class: 'content' }, paragraphs(post.content)),
    h('footer', { class: 'actions' },
      likeButton,
      mine ? h('a', { href: `#/post/${id}/edit`, class: 'button' }, '편집') : null,
      h('a', { href: `#/post/${id}/history`, class: 'button secondary' }, '역사 보기')));
}
