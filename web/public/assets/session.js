// Who is signed in, as far as the pages know: the token itself is an HttpOnly cookie the
// pages never see, so `GET /auth/me` answers it once per load and after login/logout.

import { api, userIdOf } from './api.js';

export const session = { user: null };

export async function refreshSession() {
  try {
    session.user = await api('/auth/me');
  } catch {
    session.user = null; // 401 (not signed in) or the blacklist is down: read anonymously
  }
  document.dispatchEvent(new CustomEvent('session'));
  return session.user;
}

export function setUser(user) {
  session.user = user;
  document.dispatchEvent(new CustomEvent('session'));
}

export const myId = () => userIdOf(session.user);

/** Sends the reader to the login page, coming back to `back` (a hash route) afterwards. */
export function loginFirst(back = location.hash || '#/') {
  location.hash = `#/login?next=${encodeURIComponent(back)}`;
}
