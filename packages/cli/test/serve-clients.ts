/*
 * The client programs of the lock-service end-to-end test, written to a file and spawned: one in
 * Node (fetch) and one in Python's standard library (urllib). Each opens a session, keeps it
 * alive from a timer, and `rounds` times acquires the lock `counter`, increments the counter of a
 * fencing-aware store — a JSON file that refuses a write whose fencing token is not above the last
 * one it accepted (counted in `refused`) — and releases. `rounds` -1: acquire, print `HOLDING`,
 * and hold until killed.
 */

/** The store's file: the counter, the highest token it accepted, the writes it refused. */
export interface CounterFile {
  value: number;
  token: number;
  refused: number;
}

/** The Node client: `node client.mjs <port> <rounds> <counter-file> <ttlMs>`. */
export const NODE_CLIENT = `
import { readFileSync, writeFileSync } from 'node:fs';
const [port, rounds, file, ttl] = process.argv.slice(2).map((x, i) => (i === 2 ? x : Number(x)));
const base = 'http://127.0.0.1:' + port;
async function post(path, body) {
  const r = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
  const j = await r.json();
  if (!r.ok) throw new Error(path + ': ' + r.status + ' ' + JSON.stringify(j));
  return j;
}
const { id } = await post('/v1/sessions', { ttlMs: ttl });
const keep = setInterval(() => post('/v1/sessions/' + id + '/keepalive').catch(() => {}), ttl / 4);
if (rounds < 0) {
  const { token } = await post('/v1/locks/counter/acquire', { session: id });
  console.log('HOLDING ' + token);
} else {
  for (let i = 0; i < rounds; i++) {
    const { token } = await post('/v1/locks/counter/acquire', { session: id });
    const c = JSON.parse(readFileSync(file, 'utf8'));
    if (token > c.token) Object.assign(c, { value: c.value + 1, token });
    else c.refused++;
    writeFileSync(file, JSON.stringify(c));
    await post('/v1/locks/counter/release', { session: id });
    console.log('round ' + (i + 1));
  }
  clearInterval(keep);
  await fetch(base + '/v1/sessions/' + id, { method: 'DELETE' });
}
`;

/** The Python client (standard library only): `python3 client.py <port> <rounds> <counter-file> <ttlMs>`. */
export const PYTHON_CLIENT = `
import json, sys, threading, urllib.request

port, rounds, path, ttl = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
base = "http://127.0.0.1:" + port

def call(method, route, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + route, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        text = r.read()
        return json.loads(text) if text else None

session = call("POST", "/v1/sessions", {"ttlMs": ttl})["id"]
stop = threading.Event()
def keepalive():
    while not stop.wait(ttl / 4000):
        try:
            call("POST", "/v1/sessions/%s/keepalive" % session, {})
        except Exception:
            pass
threading.Thread(target=keepalive, daemon=True).start()

for i in range(rounds):
    token = call("POST", "/v1/locks/counter/acquire", {"session": session})["token"]
    with open(path) as f:
        c = json.load(f)
    if token > c["token"]:
        c["value"] += 1
        c["token"] = token
    else:
        c["refused"] += 1
    with open(path, "w") as f:
        json.dump(c, f)
    call("POST", "/v1/locks/counter/release", {"session": session})
    print("round %d" % (i + 1), flush=True)
stop.set()
call("DELETE", "/v1/sessions/" + session)
`;
