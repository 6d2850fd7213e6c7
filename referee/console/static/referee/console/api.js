/* The referee API v1 client: requests with the session, CSRF token, device id,
 * Idempotency-Key, If-Match and X-Typed-By (who typed a queued write: the server refuses it,
 * 403 typist_mismatch, when somebody else is signed in), and the class of every answer,
 * which decides what the queue does with the action that got it:
 *
 *   done      2xx: recorded (or a replay of the recorded answer).
 *   refused   a refusal that will not change on retry: the rules (422), a state
 *             refusal (409 other than version_conflict), a malformed request (400, 404,
 *             413, 415). The action is dropped and its message kept on screen.
 *   conflict  409 version_conflict: another phone recorded first.
 *   auth      401/403: the session is gone (or the CSRF token with it, or another account
 *             signed in: typist_mismatch): sign in again, the queue is kept. A 403 that
 *             says no to this write itself (a second person must confirm, the players
 *             confirm, a wrong PIN…) is refused.
 *   retry     429, 5xx, 408 and network errors: sent again later, with backoff.
 */

export const DONE = "done";
export const REFUSED = "refused";
export const CONFLICT = "conflict";
export const AUTH = "auth";
export const RETRY = "retry";

/** 403 codes that refuse the write itself, not the session: signing in again changes nothing. */
export const REFUSED_403 = ["second_person_required", "confirmed_by_players", "pin_wrong", "board_not_assigned"];

/** The class of an answer ``{status, data}`` (status 0: no answer reached us). */
export function classify(answer) {
  const status = answer.status;
  if (!status) return RETRY;
  if (status >= 200 && status < 300) return DONE;
  if (status === 403 && answer.data && REFUSED_403.includes(answer.data.code)) return REFUSED;
  if (status === 401 || status === 403) return AUTH;
  if (status === 408 || status === 429 || status >= 500) return RETRY;
  if (status === 409 && answer.data && answer.data.code === "version_conflict") return CONFLICT;
  return REFUSED;
}

/** Milliseconds to wait before the ``attempt``-th retry (1, 2, …): the server's
 * Retry-After (header or ``details.retry_after``) when it gave one, else an
 * exponential backoff from ``base`` ms capped at ``cap`` ms. */
export function retryDelay(attempt, answer, base = 1000, cap = 30000) {
  const details = (answer && answer.data && answer.data.details) || {};
  const after = Number((answer && answer.retryAfter) || details.retry_after);
  if (after > 0) return Math.min(after * 1000, cap * 4);
  return Math.min(cap, base * 2 ** Math.max(0, attempt - 1));
}

/** The rule a refusal names, in words: ``details.rule_number`` in the referee's words
 * when ``words`` (the console strings) has them (``rule_R7.2``), else the API's own
 * ``details.rule``; "" when it names none. */
export function ruleText(details, words = {}) {
  if (!details || (!details.rule && !details.rule_number)) return "";
  const number = details.rule_number;
  const named = number && words["rule_" + number];
  const template = named ? words.rule_named || "Rule %(number)s: %(text)s" : words.rule_plain || "Rule: %(text)s";
  const values = { number, text: named || details.rule || number };
  return template.replace(/%\((\w+)\)s/g, (_, k) => String(values[k]));
}

/** A refusal in parts: the API's message (in the referee's language) with its field
 * errors, and the rule it names (``ruleText``, "" when none). */
export function refusalParts(answer, fallback, words) {
  const d = answer.data || {};
  let message = d.message || fallback || "HTTP " + answer.status;
  if (d.details && d.details.fields) {
    message += " " + Object.keys(d.details.fields)
      .map((f) => f + ": " + fieldErrors(d.details.fields[f]))
      .join("; ");
  }
  return { message, rule: ruleText(d.details, words) };
}

/** A field's errors in words: a list joined, a nested field (``pins: {"0": [...]}``)
 * named by its key. */
export function fieldErrors(errors) {
  if (Array.isArray(errors)) return errors.map(fieldErrors).join(" ");
  if (errors && typeof errors === "object") {
    return Object.keys(errors).map((k) => k + ": " + fieldErrors(errors[k])).join("; ");
  }
  return String(errors);
}

/** The refusal's text: its message and the rule it names. */
export function errorText(answer, fallback, words) {
  const { message, rule } = refusalParts(answer, fallback, words);
  return rule ? message + " — " + rule : message;
}

export function newKey(crypto = globalThis.crypto) {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => ("0" + b.toString(16)).slice(-2)).join("");
}

export function csrfFromCookie(cookie) {
  const m = (cookie || "").match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

/** A client bound to a fetch function (the browser's, or a test's). */
export function createApi({ fetch, deviceId, csrfToken }) {
  async function request(method, url, body, options = {}) {
    const headers = { Accept: "application/json", "X-Device-Id": deviceId() };
    if (method !== "GET") {
      headers["Content-Type"] = "application/json";
      headers["X-CSRFToken"] = csrfToken();
      if (options.key) headers["Idempotency-Key"] = options.key; // a preview writes nothing: none
      if (typeof options.version === "number") headers["If-Match"] = '"' + options.version + '"';
      if (options.typist) headers["X-Typed-By"] = String(options.typist);
    }
    let resp;
    try {
      resp = await fetch(url, {
        method,
        headers,
        credentials: "same-origin",
        cache: "no-store",
        body: method === "GET" ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      return { ok: false, status: 0, data: null, network: true };
    }
    let text = "";
    try {
      text = await resp.text();
    } catch (e) {
      return { ok: false, status: 0, data: null, network: true };
    }
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch (e) {
      data = null;
    }
    const retryAfter = resp.headers && resp.headers.get ? resp.headers.get("Retry-After") : null;
    return { ok: resp.ok, status: resp.status, data, retryAfter };
  }
  return {
    get: (url) => request("GET", url),
    post: (url, body, options) => request("POST", url, body, options),
  };
}
