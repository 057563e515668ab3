// #/login and #/signup. The token comes back as an HttpOnly cookie the pages never read;
// the answer's user is the session (auth/AccountRules says what a valid account is).

import { api } from '../api.js';
import { h, errorBox, announce } from '../dom.js';
import { setUser } from '../session.js';

const safeNext = (next) => (next && /^#\/[^/]/.test(next) || next === '#/' ? next : '#/');

function field(id, label, attrs, hint) {
  return h('div', { class: 'field' },
    h('label', { for: id }, label),
    h('input', { id, name: id.replace(/^(login|signup)-/, ''), ...attrs, 'aria-describedby': hint ? `${id}-hint` : null }),
    hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null);
}

function accountForm({ id, title, fields, submit, call, next, other }) {
  const message = h('div', { class: 'form-message', 'aria-live': 'assertive' });
  const button = h('button', { type: 'submit' }, submit);
  const form = h('form', { class: 'account-form', id, novalidate: true }, fields, message, h('div', { class: 'actions' }, button));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    message.replaceChildren();
    button.disabled = true;
    const body = Object.fromEntries(new FormData(form));
    try {
      const user = await call(body);
      setUser(user);
      announce(`${user.nickname} 님, 환영합니다.`);
      location.hash = safeNext(next);
    } catch (err) {
      message.replaceChildren(errorBox(err));
      form.querySelector('input')?.focus();
    } finally {
      button.disabled = false;
    }
  });
  return h('section', { class: 'narrow' }, h('h1', {}, title), form, other);
}

export function loginView(params) {
  const next = params.next || '#/';
  return accountForm({
    id: 'login-form',
    title: '로그인',
    submit: '로그인',
    next,
    fields: [
      field('login-username', '아이디', { required: true, autocomplete: 'username', autocapitalize: 'off' }),
      field('login-password', '비밀번호', { type: 'password', required: true, autocomplete: 'current-password' }),
    ],
    call: (b) => api('/auth/login', { method: 'POST', body: { username: b.username, password: b.password } }),
    other: h('p', {}, '처음이신가요? ', h('a', { href: `#/signup?next=${encodeURIComponent(next)}` }, '가입하기')),
  });
}

export function signupView(params) {
  const next = params.next || '#/';
  return accountForm({
    id: 'signup-form',
    title: '가입하기',
    submit: '가입하기',
    next,
    fields: [
      field('signup-username', '아이디', { required: true, autocomplete: 'username', autocapitalize: 'off', pattern: '[A-Za-z0-9]{5,20}', maxlength: 20 },
        '영문자와 숫자 5~20자. 로그인할 때 씁니다.'),
      field('signup-nickname', '별명', { required: true, autocomplete: 'nickname', maxlength: 12 },
        '글자나 숫자 2~12자. 다른 사람에게 보입니다.'),
      field('signup-password', '비밀번호', { type: 'password', required: true, autocomplete: 'new-password', minlength: 8, maxlength: 64 },
        '8~64자. 소문자·대문자·숫자·기호 중 두 가지 이상을 섞으세요.'),
    ],
    call: (b) => api('/auth/signup', { method: 'POST', body: { username: b.username, nickname: b.nickname, password: b.password } }),
    other: h('p', {}, '이미 가입하셨나요? ', h('a', { href: `#/login?next=${encodeURIComponent(next)}` }, '로그인')),
  });
}
