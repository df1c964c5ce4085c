// The REST side of the server protocol (docs/server-protocol.md) and the seat tokens kept in localStorage.

import { errorText } from "./words.js";

let nameOfSeat = () => null;

/** How refusals name seats (the table page passes its seat names; elsewhere seats are numbered). */
export function nameSeatsWith(nameOf) {
  nameOfSeat = nameOf;
}

/** Fetch JSON; on an HTTP error throw an Error with the server's one-line refusal in the page's language
 * (`code`, `params` and the English `detail` kept on the error). */
export async function request(method, url, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (method !== "GET") {
    // A signed-in person's requests carry the session's CSRF token (docs/playing.md, Accounts).
    if (csrfToken === undefined && !url.startsWith("/api/account/")) await account().catch(() => {});
    if (csrfToken) init.headers["X-CSRF-Token"] = csrfToken;
  }
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    const detail = data && data.detail;
    const english = typeof detail === "string" ? detail : detail ? JSON.stringify(detail) : `${response.status} ${response.statusText}`;
    const error = new Error(errorText({ code: data && data.code, params: data && data.params, message: english }, (s) => nameOfSeat(s)));
    Object.assign(error, { code: data && data.code, params: data && data.params, detail: english, status: response.status });
    throw error;
  }
  return data;
}

let csrfToken; // undefined: not asked yet; null: nobody is signed in

/** Who is signed in (`GET /api/account`: `person` is null for a guest); keeps the session's CSRF token. */
export async function account() {
  const data = await request("GET", "/api/account");
  csrfToken = data.csrf || null;
  return data;
}

/** Sign up, log in, log out, change the password or delete the account (`POST /api/account/...`). */
export async function accountAction(what, body = {}) {
  const data = await request("POST", `/api/account/${what}`, body);
  if (data && "csrf" in data) csrfToken = data.csrf;
  if (data && data.person === null) csrfToken = null;
  return data;
}

let gamesPromise = null;

/** The game catalogue (`GET /api/games`), fetched once per page. */
export function games() {
  gamesPromise ??= request("GET", "/api/games");
  return gamesPromise;
}

/** One game's catalogue entry by short name. */
export async function game(name) {
  const list = await games();
  const found = list.find((g) => g.name === name);
  if (!found) throw new Error(`unknown game ${name}`);
  return found;
}

export const listTables = () => request("GET", "/api/tables");
export const getTable = (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`);
export const createTable = (body) => request("POST", "/api/tables", body);
export const joinTable = (id, seat, name) => request("POST", `/api/tables/${encodeURIComponent(id)}/join`, { seat, name });
export const startTable = (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/start`, { token });
export const leaveTable = (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/leave`, { token });

export const takeSeat = (id, seat, name) => request("POST", `/api/tables/${encodeURIComponent(id)}/take`, { seat, name });
export const social = (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/social`);
export const readsSummaries = (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/reader`, { token });
export const continueTable = (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/continue`, { token });
export const rematch = (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, { token });
export const chat = (id, token, body) => request("POST", `/api/tables/${encodeURIComponent(id)}/chat`, { token, ...body });
export const settings = (id, token, values) => request("POST", `/api/tables/${encodeURIComponent(id)}/settings`, { token, ...values });
export const inviteBot = (id, token, seat, bot) => request("POST", `/api/tables/${encodeURIComponent(id)}/invite`, { token, seat, bot });
export const removeBot = (id, token, seat) => request("POST", `/api/tables/${encodeURIComponent(id)}/remove_bot`, { token, seat });
// The Bot API's accounts (docs/bot-api.md): the bots connected now, and (with --open-bots) making one.
export const bots = () => request("GET", "/api/bots");
export const makeBot = (name) => request("POST", "/api/bots", { name });
export const finishedTables = () => request("GET", "/api/finished");
export const rules = (game, lang) => request("GET", `/api/games/${encodeURIComponent(game)}/rules?lang=${encodeURIComponent(lang)}`);

// Seat tokens: one key per table (`cardtable.token.<table_id>`), so a reload or a new tab keeps the seat.

const key = (id) => `cardtable.token.${id}`;

/** The stored seat token for this table, or null. */
export function loadToken(id) {
  return localStorage.getItem(key(id));
}

/** Remember this browser's seat token at a table. */
export function saveToken(id, token) {
  localStorage.setItem(key(id), token);
}

/** Forget this browser's seat at a table (after leaving it). */
export function forgetToken(id) {
  localStorage.removeItem(key(id));
}

const pendingKey = (id) => `cardtable.pending.${id}`;

/** Remember that this browser's token will hold `seat` once the computer hands it over. */
export function savePendingTake(id, seat) {
  localStorage.setItem(pendingKey(id), String(seat));
}

/** The seat this browser waits to take over at a table, or null. */
export function loadPendingTake(id) {
  const value = localStorage.getItem(pendingKey(id));
  return value !== null && /^\d+$/.test(value) ? Number(value) : null;
}

/** The takeover happened (or was forgotten): stop waiting for it. */
export function forgetPendingTake(id) {
  localStorage.removeItem(pendingKey(id));
}

/** The name this browser used last, to fill name fields. */
export function lastName() {
  return localStorage.getItem("cardtable.name") || "";
}

/** Remember the name typed for the next form. */
export function rememberName(name) {
  if (name) localStorage.setItem("cardtable.name", name);
}
