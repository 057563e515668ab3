// The one place that talks to the API (same origin, /api/v1.0). Success bodies are an
// envelope {status, data}; errors are problem+json. Every call resolves to the data or
// throws an ApiError carrying the problem (status, code, detail).

const BASE = '/api/v1.0';

export class ApiError extends Error {
  constructor(status, problem) {
    // `message` is being added beside `detail` on the server; older answers have `detail` only.
    super(problem?.detail || problem?.message || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem?.code || null;
    this.problem = problem || {};
  }
}

export async function api(path, { method = 'GET', body, signal, headers = {} } = {}) {
  // X-Requested-With marks every call as the pages' own: the server refuses a cookie-signed
  // change without it or a JSON body, which is what a cross-site form would send (ADR 0088).
  const init = {
    method, signal, credentials: 'same-origin',
    headers: { Accept: 'application/json', 'X-Requested-With': 'hanwiki-web', ...headers },
  };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(BASE + path, init);
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, { detail: '서버에 연결할 수 없습니다. 잠시 후 다시 시도해 주세요.', code: 'NETWORK' });
  }
  if (response.status === 204) return null;
  let json = null;
  try {
    json = await response.json();
  } catch {
    // an empty or non-JSON body: handled below by status
  }
  if (!response.ok) throw new ApiError(response.status, json);
  return json && 'data' in json ? json.data : json;
}

/** Query string from an object, skipping null/undefined/'' values. */
export function qs(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') u.set(k, String(v));
  }
  const s = u.toString();
  return s ? `?${s}` : '';
}

/** A slice's "is this the first page" (the `first` field is new; derive it from `number`). */
export const isFirst = (slice) => slice.first ?? slice.number === 0;
/** A slice's "is there a next page" (`hasNext`, or the inverse of `last`). */
export const hasNext = (slice) => slice.hasNext ?? (slice.last === undefined ? false : !slice.last);

/** The signed-in user's id (`userId` is being added to auth answers beside `id`). */
export const userIdOf = (user) => (user ? user.userId ?? user.id : null);

let categoriesPromise = null;
/** Categories (id, name, parentId), fetched once per page load. */
export function categories() {
  categoriesPromise ??= api('/categories').catch((e) => {
    categoriesPromise = null;
    throw e;
  });
  return categoriesPromise;
}
