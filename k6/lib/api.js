// One function per API call the mixes make. Every request carries the tags `endpoint` (the
// call's name: per-endpoint metrics and thresholds) and `name` (the same, so k6 does not
// make one series per URL). `expect` lists the statuses that are a correct answer (e.g. 409
// for a deliberate stale edit): anything else counts in http_req_failed.
import http from 'k6/http';
import { check, sleep } from 'k6';
import encoding from 'k6/encoding';
import { Rate, Trend } from 'k6/metrics';
import { API, BASE_URL, JSON_HEADERS, PROFILE } from './config.js';
import { accounts } from './data.js';


// The overload profile (ADR 0093): a node past its limit answers 503 OVERLOADED with
// Retry-After at once. That is a correct answer there, counted apart: the admitted requests'
// latency, the share shed, and anything else that failed (a 5xx that is not a shed, a 4xx).
const OVERLOAD = PROFILE === 'overload';
const admittedDuration = new Trend('overload_admitted_duration', true);
const shedDuration = new Trend('overload_shed_duration', true);
const shedRate = new Rate('overload_shed');
const unexpected = new Rate('overload_unexpected');

export function request(method, endpoint, path, body, opts = {}) {
  const headers = body === null || body === undefined ? {} : { ...JSON_HEADERS };
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  if (opts.headers) Object.assign(headers, opts.headers);
  const params = {
    headers,
    tags: { endpoint, name: endpoint },
    responseCallback: http.expectedStatuses(...(opts.expect || [{ min: 200, max: 299 }]), ...(OVERLOAD ? [503] : [])),
  };
  const payload = body === null || body === undefined ? null : JSON.stringify(body);
  const res = http.request(method, `${API}${path}`, payload, params);
  const want = opts.expect || [200, 201];
  const shed = OVERLOAD && res.status === 503 && json(res, 'code') === 'OVERLOADED';
  check(res, { [`${endpoint} answers ${want.join('/')}`]: (r) => want.includes(r.status) || shed }, { endpoint });
  if (OVERLOAD) {
    const tags = { endpoint };
    shedRate.add(shed, tags);
    unexpected.add(!shed && !want.includes(res.status), tags);
    if (shed) {
      shedDuration.add(res.timings.duration, tags);
      check(res, { 'a shed answer carries Retry-After and a problem body': (r) => Number(r.headers['Retry-After']) >= 1
        && String(r.headers['Content-Type']).startsWith('application/problem+json') }, tags);
    } else {
      admittedDuration.add(res.timings.duration, tags);
    }
  }
  return res;
}

export function json(res, path) {
  try {
    return res.json(path);
  } catch (e) {
    return undefined;
  }
}

// Anonymous readers: a VU's cookie jar would otherwise send the token and the hw_sync
// write position of its last write with every read (signed-in, cache-bypassing reads).
export function forgetCookies() {
  const jar = http.cookieJar();
  jar.delete(BASE_URL, 'token');
  jar.delete(BASE_URL, 'hw_sync');
}

// --- sessions ------------------------------------------------------------------------------
// VU n uses account (n-1) mod N; its token comes from the provisioning (logged in on the
// nodes' own ports before the run). A token lives 30 min: a VU logs in again through BASE_URL
// (nginx) some minutes before it expires, at a per-VU random margin so that refreshes spread
// out, and waits out a 429 from nginx's login limit (1/s per address, burst 10).
let session = null;

function expiry(token) {
  try {
    const payload = JSON.parse(encoding.b64decode(token.split('.')[1], 'rawurl', 's'));
    return payload.exp * 1000;
  } catch (e) {
    return Date.now() + 10 * 60 * 1000;
  }
}

export function tokenFrom(res) {
  const c = res.cookies && res.cookies.token;
  return c && c.length > 0 ? c[0].value : null;
}

export function login(username, password, endpoint = 'login', expect = [200]) {
  return request('POST', endpoint, '/auth/login', { username, password }, { expect });
}

export function currentSession() {
  if (session === null) {
    const a = accounts[(__VU - 1) % accounts.length];
    session = { username: a.username, password: a.password, token: a.token, exp: expiry(a.token),
      margin: (120 + Math.random() * 600) * 1000 };
  }
  if (Date.now() > session.exp - session.margin) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const res = login(session.username, session.password, 'login-refresh', [200, 429]);
      const token = res.status === 200 ? tokenFrom(res) : null;
      if (token) {
        session.token = token;
        session.exp = expiry(token);
        break;
      }
      sleep(1 + Math.random() * 3);
    }
  }
  return session;
}
