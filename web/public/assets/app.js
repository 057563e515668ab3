// The pages' shell: hash routes (#/search?q=..., #/post/12, ...) so that nginx serves one
// static file and every other path stays the API's (ADR 0073). Each route renders into
// <main>, sets the title and moves focus to the new heading.

import { attachAutocomplete } from './autocomplete.js';
import { api } from './api.js';
import { h, errorBox, announce } from './dom.js';
import { session, refreshSession, setUser } from './session.js';
import { searchView } from './views/search.js';
import { recentView, categoriesView, postView } from './views/posts.js';
import { editorView } from './views/editor.js';
import { historyView, diffView, revisionView } from './views/history.js';
import { loginView, signupView } from './views/account.js';

const routes = [
  [/^\/$/, () => recentView({ home: true })],
  [/^\/search$/, (m, p) => searchView(p)],
  [/^\/recent$/, (m, p) => recentView(p)],
  [/^\/categories$/, () => categoriesView()],
  [/^\/new$/, () => editorView(null)],
  [/^\/post\/(\d+)$/, (m) => postView(m[1])],
  [/^\/post\/(\d+)\/edit$/, (m) => editorView(m[1])],
  [/^\/post\/(\d+)\/history$/, (m, p) => historyView(m[1], p)],
  [/^\/post\/(\d+)\/diff$/, (m, p) => diffView(m[1], p)],
  [/^\/post\/(\d+)\/rev\/(\d+)$/, (m) => revisionView(m[1], m[2])],
  [/^\/login$/, (m, p) => loginView(p)],
  [/^\/signup$/, (m, p) => signupView(p)],
];

const view = document.getElementById('view');
let rendering = 0;

async function route() {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, query = ''] = hash.split('?');
  const params = Object.fromEntries(new URLSearchParams(query));
  const mine = ++rendering;
  syncSearchBox(path, params);
  let node;
  try {
    const found = routes.find(([re]) => re.test(path));
    node = found ? await found[1](path.match(found[0]), params) : notFound();
  } catch (e) {
    node = h('section', {}, h('h1', { tabindex: '-1' }, '문제가 생겼습니다'), errorBox(e));
  }
  if (mine !== rendering) return; // a newer navigation won
  view.replaceChildren(node);
  const heading = view.querySelector('h1');
  document.title = heading && heading.textContent !== '한위키' ? `${heading.textContent} · 한위키` : '한위키';
  if (heading) {
    heading.setAttribute('tabindex', '-1');
    // Focus follows navigation (screen readers hear the new page), but not on the first load
    // and not while someone is typing in the search box.
    if (document.activeElement !== searchInput && route.started) heading.focus({ preventScroll: false });
  }
  route.started = true;
  window.scrollTo(0, 0);
}

function notFound() {
  return h('section', {}, h('h1', {}, '없는 페이지입니다'), h('p', {}, h('a', { href: '#/' }, '첫 페이지로')));
}

// --- search box (in the header, on every page) -------------------------------------------
const searchForm = document.getElementById('search-form');
const searchInput = document.getElementById('q');
const autocomplete = attachAutocomplete(searchInput, document.getElementById('q-list'), {
  onPick(item) {
    if (item.id != null) location.hash = `#/post/${item.id}`;
    else {
      searchInput.value = item.title;
      go(item.title);
    }
  },
});
function go(q) {
  autocomplete.close();
  if (q.trim()) location.hash = `#/search?q=${encodeURIComponent(q.trim())}`;
}
searchForm.addEventListener('submit', (e) => {
  e.preventDefault();
  go(searchInput.value);
});
function syncSearchBox(path, params) {
  if (path === '/search' && document.activeElement !== searchInput) searchInput.value = params.q || '';
}

// --- account corner --------------------------------------------------------------------
const account = document.getElementById('account');
function renderAccount() {
  const here = location.hash || '#/';
  const back = encodeURIComponent(/^#\/(login|signup)/.test(here) ? '#/' : here);
  if (session.user) {
    account.replaceChildren(
      h('span', { class: 'who' }, h('span', { class: 'sr-only' }, '로그인: '), session.user.nickname),
      h('button', { type: 'button', class: 'link', id: 'logout', onclick: logout }, '로그아웃'),
    );
  } else {
    account.replaceChildren(
      h('a', { href: `#/login?next=${back}` }, '로그인'),
      h('a', { href: `#/signup?next=${back}`, class: 'button' }, '가입하기'),
    );
  }
}
async function logout() {
  try {
    await api('/auth/logout', { method: 'POST' });
  } catch (e) {
    if (e.status !== 401) { announce(e.message); return; }
  }
  setUser(null);
  announce('로그아웃했습니다.');
  location.hash = '#/';
}
document.addEventListener('session', renderAccount);

window.addEventListener('hashchange', () => { renderAccount(); route(); });
renderAccount();
refreshSession().finally(route);
