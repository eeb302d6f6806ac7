import json, sys, threading, urllib.error, urllib.request

BASE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:7070"

def call(method, route, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(BASE + route, data=data, method=method,
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:  # a deadline (above timeoutMs)
        text = r.read()
        return json.loads(text) if text else None

session = call("POST", "/v1/sessions", {"ttlMs": 10000})["id"]
stop = threading.Event()
def keepalive():  # every third of the ttl, as the client does
    while not stop.wait(10 / 3):
        call("POST", "/v1/sessions/%s/keepalive" % session)
threading.Thread(target=keepalive, daemon=True).start()

lock = call("POST", "/v1/locks/stock/acquire", {"session": session, "timeoutMs": 5000})
print("held", lock["name"], "token", lock["token"])  # hand the token to the resource
call("POST", "/v1/locks/stock/release", {"session": session})
try:
    call("POST", "/v1/locks/stock/acquire", {"session": session, "ifAvailable": True})
    print("free")
    call("POST", "/v1/locks/stock/release", {"session": session})
except urllib.error.HTTPError as e:  # 409 {"error": {"code": "LOCK_UNAVAILABLE", ...}}: held elsewhere
    print(json.loads(e.read())["error"]["code"])
print(len(call("GET", "/v1/locks")["held"]), "held")
stop.set()
call("DELETE", "/v1/sessions/" + session)
