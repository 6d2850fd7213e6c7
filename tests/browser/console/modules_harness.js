/* The harness of test_console_modules.py, run in the console's origin before each test's
 * body: the modules under test (api, q), an in-memory storage, a scripted fake API that
 * records what it is sent, fake timers, and a queue of three bids with its sender. */
const api = await import('/static/referee/console/api.js');
const q = await import('/static/referee/console/queue.js');
class Memory {
  constructor() { this.data = {}; }
  getItem(k) { return k in this.data ? this.data[k] : null; }
  setItem(k, v) { this.data[k] = String(v); }
  removeItem(k) { delete this.data[k]; }
}
const answer = (status, data, retryAfter) => ({
  ok: status >= 200 && status < 300, status, data, retryAfter,
});
/* A fake API answering from a script: one answer per post, in order; records the posts. */
function scripted(answers) {
  const posts = [];
  const post = async (url, body, options) => {
    posts.push({ url, body, options });
    return answers.shift();
  };
  return { posts, post };
}
function timers() {
  const pending = [];
  const schedule = (fn, ms) => {
    pending.push({ fn, ms });
    return pending.length;
  };
  return { pending, schedule, cancel: () => {} };
}
function setup(answers) {
  const queue = new q.Queue(new Memory());
  ['a', 'b', 'c'].forEach((key, i) => queue.push({
    key, url: '/api/v1/hands/1/actions/', body: { seat: i, bid: i + 1 },
    label: 'bid ' + key, handId: 1, version: 5 + i,
  }));
  const fake = scripted(answers);
  const t = timers();
  const calls = [];
  const hook = (name) => async (item) => { calls.push(name + ':' + item.key); };
  const sender = new q.Sender({ queue, api: fake, schedule: t.schedule, cancel: t.cancel, hooks: {
    done: async (item, a, info) => {
      calls.push('done:' + item.key + (info.reconnected ? ':reconnected' : ''));
    },
    refused: hook('refused'), conflict: hook('conflict'), auth: hook('auth'),
    retry: async (item, a, delay) => { calls.push('retry:' + item.key + ':' + delay); },
  } });
  return { queue, fake, t, calls, sender, keys: () => queue.items().map((i) => i.key) };
}
