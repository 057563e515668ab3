// Shared k6 settings: the target comes from BASE_URL (the Makefile passes nginx's port
// from infra/ports.env). Load goes to loopback only.
export const BASE_URL = __ENV.BASE_URL || 'http://127.0.0.1:8080';
export const API = `${BASE_URL}/api/v1.0`;
export const JSON_HEADERS = { headers: { 'Content-Type': 'application/json' } };
