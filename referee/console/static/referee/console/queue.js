/* The offline queue: every write is an item kept in storage (localStorage) with the
 * Idempotency-Key made once when it was typed, the hand version it was typed against, and
 * who typed it (the account the page was shown to: ``by``, its id, and ``byName``), and
 * sent oldest first. A phone may pass from one referee to the next: a queue shows and sends
 * only its own typist's items; the others' wait on the phone for their typist to sign in
 * again and are never sent as anybody else's (the server refuses that too: X-Typed-By).
 * What happens to an item depends on its answer's class (api.js): done → removed; refused
 * or conflict → removed, the ones after it held back until the referee sends or discards
 * them; auth → everything kept, sending paused until the referee has signed in again;
 * retry → kept, sent again after a backoff.
 *
 * One sender at a time: a flush asked while one is under way (a write tapped while an answer
 * is handled, the hand read again after a refusal, say; the 'online' event) makes that one
 * look at the queue once more when it ends, so the write is sent then, once, in its turn.
 * What is held is decided when a refusal comes back: the writes waiting then (typed before
 * the referee could see it) are held; a write added after it, while it is shown or later, is
 * the referee's new decision and is sent, unless writes are held, which it then waits
 * behind (order is kept: Send now sends them all, Discard discards them all). */

import { AUTH, CONFLICT, DONE, REFUSED, RETRY, classify, retryDelay } from "./api.js";

export const QUEUE_KEY = "referee-console-queue-v1";
export const HELD_KEY = "referee-console-held-v1";

export class Queue {
  /** ``typist``: the id of the account the page was shown to ("" in tests: one typist),
   * ``typistName`` its name; both are stamped on every item pushed. */
  constructor(storage, { typist = "", typistName = "", key = QUEUE_KEY, heldKey = HELD_KEY } = {}) {
    this.storage = storage;
    this.typist = String(typist);
    this.typistName = typistName;
    this.key = key;
    this.heldKey = this.typist ? heldKey + ":" + this.typist : heldKey;
  }
  /** Every item on the phone, whoever typed it. */
  all() {
    try {
      return JSON.parse(this.storage.getItem(this.key) || "[]");
    } catch (e) {
      return [];
    }
  }
  mine(item) {
    return String(item.by || "") === this.typist;
  }
  /** This typist's items, oldest first: the ones sent, shown and counted. */
  items() {
    return this.all().filter((q) => this.mine(q));
  }
  /** The items typed by others on this phone, held for them. */
  others() {
    return this.all().filter((q) => !this.mine(q));
  }
  /** The others' items by typist: [{by, name, count}]. */
  othersByTypist() {
    const found = new Map();
    this.others().forEach((q) => {
      const by = String(q.by || "");
      const entry = found.get(by) || { by, name: q.byName || "", count: 0 };
      entry.count += 1;
      found.set(by, entry);
    });
    return Array.from(found.values());
  }
  /** Keep ``items`` as this typist's (the others' stay as they are). */
  save(items) {
    this.storage.setItem(this.key, JSON.stringify(this.others().concat(items)));
  }
  /** Append an item (its key and version are the caller's; its typist this queue's);
   * answers it. */
  push(item) {
    const items = this.items();
    const stamped = Object.assign({}, item, { by: this.typist, byName: this.typistName });
    items.push(stamped);
    this.save(items);
    return stamped;
  }
  remove(key) {
    this.save(this.items().filter((q) => q.key !== key));
  }
  /** Discard this typist's items. */
  clear() {
    this.save([]);
    this.setHeld(false);
  }
  /** Discard the items typed by others (a referee who will not come back to this phone). */
  clearOthers() {
    this.storage.setItem(this.key, JSON.stringify(this.items()));
  }
  forHand(handId) {
    return this.items().filter((q) => q.handId === handId);
  }
  /** The version a new write on ``hand`` is typed against: the hand's version plus the
   * writes on it still waiting (each one event, each one version). */
  versionFor(hand) {
    return hand.version + this.forHand(hand.id).length;
  }
  /** A write on ``handId`` was refused (no event, no version): the ones typed after it
   * counted on it, so each expects one version less. */
  unshift(handId) {
    this.save(this.items().map((q) => (q.handId === handId && typeof q.version === "number"
      ? Object.assign({}, q, { version: q.version - 1 }) : q)));
  }
  held() {
    return this.storage.getItem(this.heldKey) === "1";
  }
  setHeld(value) {
    if (value) this.storage.setItem(this.heldKey, "1");
    else this.storage.removeItem(this.heldKey);
  }
}

export class Sender {
  constructor({ queue, api, hooks, schedule, cancel }) {
    this.queue = queue;
    this.api = api;
    this.hooks = hooks || {};
    this.schedule = schedule || ((fn, ms) => setTimeout(fn, ms));
    this.cancel = cancel || ((id) => clearTimeout(id));
    this.flushing = null;
    this.again = false; // a flush was asked while one was under way: look once more
    this.attempt = 0;
    this.timer = null;
    this.signedOut = false;
    this.interrupted = false; // a send got no answer: reread the hand on the next success
  }
  async hook(name, ...args) {
    if (this.hooks[name]) await this.hooks[name](...args);
  }
  /** The connection is back (or the referee pressed Send): send now. */
  wake() {
    if (this.timer !== null) {
      this.cancel(this.timer);
      this.timer = null;
    }
    this.attempt = 0;
    return this.flush();
  }
  /** Signed in again: sending resumes. */
  resume() {
    this.signedOut = false;
    return this.wake();
  }
  /** Send what can be sent; the answer settles when the sender is idle again. Asked while a
   * flush is under way (its answers being handled), that flush goes round once more before
   * it ends: never two senders, never a write left waiting for another wake. */
  flush() {
    if (this.flushing) {
      this.again = true;
      return this.flushing;
    }
    this.flushing = this.drain().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }
  async drain() {
    do {
      this.again = false;
      await this.run();
    } while (this.again);
  }
  async run() {
    for (;;) {
      const items = this.queue.items();
      if (!items.length || this.queue.held() || this.signedOut || this.timer !== null) break;
      const item = items[0];
      const answer = await this.api.post(item.url, item.body, {
        key: item.key,
        version: item.version,
        typist: item.by,
      });
      const kind = classify(answer);
      if (kind === RETRY) {
        this.attempt += 1;
        if (!answer.status) this.interrupted = true;
        const delay = retryDelay(this.attempt, answer);
        this.timer = this.schedule(() => {
          this.timer = null;
          this.flush();
        }, delay);
        await this.hook("retry", item, answer, delay);
        break;
      }
      if (kind === AUTH) {
        this.signedOut = true;
        await this.hook("auth", item, answer);
        break;
      }
      this.attempt = 0;
      this.queue.remove(item.key);
      if (kind === DONE) {
        const reconnected = this.interrupted;
        this.interrupted = false;
        await this.hook("done", item, answer, { reconnected });
        continue;
      }
      // REFUSED or CONFLICT: the ones typed after it, waiting now, wait for the referee (one
      // added while the refusal is handled is a new decision: sent then, unless these are held).
      if (kind === REFUSED && item.handId) this.queue.unshift(item.handId);
      if (this.queue.items().length) this.queue.setHeld(true);
      await this.hook(kind === CONFLICT ? "conflict" : "refused", item, answer);
      break;
    }
    await this.hook("idle");
  }
}

export { AUTH, CONFLICT, DONE, REFUSED, RETRY };
