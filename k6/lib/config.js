// Settings of a run, all from the environment (infra/k6.sh passes them; see docs/bench/load/README.md).
// The target is ONE setting: BASE_URL (nginx; default http://localhost:8080). Load goes to it only.
export const BASE_URL = (__ENV.BASE_URL || 'http://localhost:8080').replace(/\/+$/, '');
export const API = `${BASE_URL}/api/v1.0`;
export const PROFILE = __ENV.PROFILE || 'smoke';
export const MIX = __ENV.MIX || 'community';
// Files made by infra/bench/load_prepare.py before the run (absolute paths).
export const DATA_DIR = __ENV.LOAD_DATA || '../var/load';
export const JSON_HEADERS = { 'Content-Type': 'application/json' };

// num('VUS', 100): a numeric setting with a default.
export function num(name, fallback) {
  const v = __ENV[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name}=${v} is not a number`);
  return n;
}

export function str(name, fallback) {
  const v = __ENV[name];
  return v === undefined || v === '' ? fallback : v;
}
