"""Web Push (PRK-22): a person's browser subscribes, and every notification their inbox gets is
also sent to the browser's push service, encrypted and signed as the standards say.

A push service of our own (a small HTTP server on 127.0.0.1) stands in for the browser vendors'
ones: it records every push message and answers 201 Created, or what a test tells it to answer.
What it receives is checked with implementations that are not the server's:
  RFC 8030 (delivery)    the TTL, Urgency and Content-Encoding headers;
  RFC 8291 (encryption)  the aes128gcm body is decrypted by `http_ece` with the key pair and auth
                         secret the test made the way a browser's pushManager does;
  RFC 8292 (VAPID)       `Authorization: vapid t=<JWT>, k=<key>`: the ES256 signature is verified
                         with `cryptography` and again with `py_vapid`, against GET /v1/push/key.
The first two tests prove that checking machinery on its own (the RFC 8291 example message, and
a message made by `http_ece` and `py_vapid` as a sender), so they need no server.

A real server with the demo site and its own database; sensor changes come through the gateway
ingest endpoint, as in test_notifications.py. Each test uses lots no other test here touches.
"""
from __future__ import annotations

import base64
import json
import math
import os
import pathlib
import secrets
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import http_ece
import py_vapid
import py_vapid.jwt
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from conftest import WaymarkServer
from helpers import api_response

PASSWORD = "Parking#2026"
CONTACT = "mailto:ops@example.org"
KINDS = ["hold-asking", "hold-moved", "hold-expired", "lot-almost-full", "lot-full", "space-freed", "booking-cancelled", "plan-unreachable", "trail-suggestions",
         "friend-request", "friend-accepted", "thread-message", "time-to-leave"]
# How long a push message may take to arrive: it is sent after the notification is stored, not
# before the request that caused it is answered.
PUSH_DEADLINE = 20


# Encodings

def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    assert "=" not in text, f"base64url without padding expected: {text!r}"
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def point(key: ec.EllipticCurvePublicKey) -> bytes:
    """The uncompressed P-256 point (X9.62): 0x04, x, y; 65 bytes."""
    return key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def when(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


# The browser's side: a subscription (RFC 8291 §2, §3.2)

class Subscriber:
    """What a browser keeps for a push subscription: an ECDH key pair on P-256 and a 16-byte
    authentication secret, shared with the server as PushSubscription.toJSON() does."""

    def __init__(self, endpoint: str, private_key: ec.EllipticCurvePrivateKey | None = None, auth: bytes | None = None):
        self.endpoint = endpoint
        self.private_key = private_key or ec.generate_private_key(ec.SECP256R1())
        self.auth = auth if auth is not None else os.urandom(16)

    @property
    def public_key(self) -> bytes:
        return point(self.private_key.public_key())

    def to_json(self, expiration_time: int | None = None) -> dict:
        return {"endpoint": self.endpoint, "expirationTime": expiration_time,
                "keys": {"p256dh": b64url(self.public_key), "auth": b64url(self.auth)}}


# A push service (RFC 8030 §5)

@dataclass
class Push:
    path: str
    headers: Message
    body: bytes
    at: float


class PushService:
    """Records every POST (path, headers, body) and answers 201 Created with a Location, or the
    status set for that path."""

    def __init__(self):
        self.messages: list[Push] = []
        self.answers: dict[str, int] = {}
        self.changed = threading.Condition()
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = self._body()
                path = urlsplit(self.path).path
                with service.changed:
                    service.messages.append(Push(path, self.headers, body, time.time()))
                    service.changed.notify_all()
                status = service.answers.get(path, 201)
                self.send_response(status)
                if status == 201:
                    self.send_header("Location", f"/message/{secrets.token_urlsafe(8)}")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def _body(self) -> bytes:
                if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
                    data = b""
                    while True:
                        size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                        if size == 0:
                            while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                                pass
                            return data
                        data += self.rfile.read(size)
                        self.rfile.readline()
                return self.rfile.read(int(self.headers.get("Content-Length", "0")))

            def log_message(self, format, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="push-service", daemon=True)

    def start(self) -> "PushService":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def endpoint(self, answer: int = 201) -> str:
        """A new push resource, unguessable as a real push service's are."""
        path = f"/push/{secrets.token_urlsafe(18)}"
        if answer != 201:
            self.answers[path] = answer
        return self.origin + path

    def received(self, endpoint: str) -> list[Push]:
        path = urlsplit(endpoint).path
        with self.changed:
            return [m for m in self.messages if m.path == path]

    def wait_for(self, endpoint: str, count: int = 1, timeout: float = PUSH_DEADLINE) -> list[Push]:
        """Waits until `endpoint` has received at least `count` messages; returns them all."""
        deadline = time.time() + timeout
        with self.changed:
            while len(got := self.received(endpoint)) < count:
                left = deadline - time.time()
                assert left > 0, f"{len(got)} push message(s) at {endpoint} after {timeout} s, {count} expected"
                self.changed.wait(left)
            return got


# Checking a push message

def vapid_claims(authorization: str, server_key: str) -> dict:
    """RFC 8292 §3: `vapid t=<JWT>, k=<public key>`. Checks that k is the server's key and that
    the JWT is signed with it (ES256: ECDSA P-256 with SHA-256, r and s as 32 bytes each, RFC 7518
    §3.4); returns the JWT's claims. Raises InvalidSignature or AssertionError."""
    scheme, _, rest = authorization.strip().partition(" ")
    assert scheme.lower() == "vapid", authorization
    params = {}
    for part in rest.split(","):
        name, _, value = part.strip().partition("=")
        params[name.strip().lower()] = value.strip().strip('"')
    assert set(params) == {"t", "k"}, authorization
    assert params["k"] == server_key, "k is not the server's key from GET /v1/push/key"
    header_b64, claims_b64, signature_b64 = params["t"].split(".")
    header = json.loads(unb64url(header_b64))
    assert header.get("alg") == "ES256", header
    assert header.get("typ", "JWT") == "JWT", header
    signature = unb64url(signature_b64)
    assert len(signature) == 64, f"an ES256 signature is 64 bytes, not {len(signature)}"
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_key))
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    key.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    claims = json.loads(unb64url(claims_b64))
    # A second opinion from another implementation.
    assert py_vapid.jwt.decode(params["t"], server_key) == claims
    return claims


def check_claims(claims: dict, endpoint: str, at: float) -> None:
    """RFC 8292 §2: aud is the push resource's origin, exp in the future and at most 24 hours
    after the request, sub a contact URI (ours is configured)."""
    parts = urlsplit(endpoint)
    assert claims["aud"] == f"{parts.scheme}://{parts.netloc}", claims
    assert claims["sub"] == CONTACT, claims
    assert isinstance(claims["exp"], int), claims
    # exp is whole seconds: a server that rounds the request's time up may be up to a second over.
    assert at < claims["exp"] <= math.ceil(at) + 24 * 3600, (claims, at)


def open_body(body: bytes, subscriber: Subscriber, server_key: str | None = None) -> bytes:
    """RFC 8291 §4 on the aes128gcm header (RFC 8188 §2.1), then decryption by http_ece with the
    subscription's private key and auth secret. Returns the plaintext."""
    assert len(body) <= 4096, f"{len(body)} bytes: a push service need not take more than 4096 (RFC 8030 §7.2)"
    salt, rs, id_length = body[:16], int.from_bytes(body[16:20], "big"), body[20]
    assert len(salt) == 16
    assert id_length == 65, f"keyid must be the sender's uncompressed P-256 key (65 bytes), not {id_length} bytes"
    keyid = body[21:86]
    assert keyid[0] == 0x04
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), keyid)  # on the curve
    if server_key is not None:
        assert keyid != unb64url(server_key), "the ECDH key must not be the VAPID signing key (RFC 8292 §3.2)"
    assert len(body) - 86 < rs, f"one record, rs greater than it (RFC 8291 §4): {len(body) - 86} bytes, rs {rs}"
    return http_ece.decrypt(body, private_key=subscriber.private_key, auth_secret=subscriber.auth, version="aes128gcm")


def check_push(message: Push, subscriber: Subscriber, server_key: str, urgency: str) -> dict:
    """Everything a push message must be, by RFC 8030, 8291, 8292 and the contract (PRK-22). Returns the
    decrypted JSON payload."""
    h = message.headers
    assert h.get("TTL") is not None, "TTL is required (RFC 8030 §5.2)"
    assert int(h["TTL"]) > 0, h["TTL"]
    assert h.get("Urgency") == urgency, h.get("Urgency")
    assert h.get("Content-Encoding") == "aes128gcm", h.get("Content-Encoding")
    assert (h.get("Content-Type") or "").split(";")[0].strip() == "application/octet-stream", h.get("Content-Type")
    assert h.get("Authorization"), "no VAPID Authorization"
    check_claims(vapid_claims(h["Authorization"], server_key), subscriber.endpoint, message.at)
    payload = json.loads(open_body(message.body, subscriber, server_key))
    # A hold waits 10 minutes for its person: its news is worth nothing after that.
    assert int(h["TTL"]) == (600 if payload["kind"].startswith("hold-") else 3600), (h["TTL"], payload["kind"])
    return payload


def salt_and_keyid(message: Push) -> tuple[bytes, bytes]:
    return message.body[:16], message.body[21:86]


# The checking machinery, on messages of known good senders (no server needed)

def test_prk22_machinery_decrypts_the_rfc8291_example():
    """PRK-22: the decryption path opens the example message of RFC 8291 §5 with its keys."""
    receiver = ec.derive_private_key(int.from_bytes(unb64url("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"), "big"), ec.SECP256R1())
    subscriber = Subscriber("https://push.example.net/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV",
                            private_key=receiver, auth=unb64url("BTBZMqHH6r4Tts7J_aSIgg"))
    assert b64url(subscriber.public_key) == "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    body = unb64url("DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml"
                    "mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT"
                    "pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")
    assert open_body(body, subscriber) == b"When I grow up, I want to be a watermelon"
    with pytest.raises(http_ece.ECEException):
        open_body(body, Subscriber(subscriber.endpoint, private_key=receiver, auth=os.urandom(16)))


def test_prk22_machinery_accepts_a_standard_sender_and_refuses_forgeries():
    """PRK-22: a message encrypted by http_ece and signed by py_vapid as a sender passes every
    check; a wrong key, a changed signature, a wrong audience, a late expiry or a wrong auth
    secret fail."""
    service_origin = "http://127.0.0.1:8443"
    subscriber = Subscriber(f"{service_origin}/push/abc")
    signer = py_vapid.Vapid02()
    signer.generate_keys()
    server_key = b64url(point(signer.public_key))
    payload = {"id": "n1", "kind": "hold-asking", "title": "Was it you?", "body": "…", "url": "/lots/x",
               "createdAt": "2026-01-01T00:00:00Z"}

    def message(claims: dict | None = None, auth: bytes | None = None) -> Push:
        now = int(time.time())
        signed = signer.sign(claims or {"aud": service_origin, "sub": CONTACT, "exp": now + 12 * 3600})
        # RFC 8292's own example separates the parameters with ", ": accept both.
        authorization = signed["Authorization"].replace(",k=", ", k=")
        body = http_ece.encrypt(json.dumps(payload).encode(), private_key=ec.generate_private_key(ec.SECP256R1()),
                                dh=subscriber.public_key, auth_secret=auth or subscriber.auth, version="aes128gcm")
        headers = Message()
        for name, value in {"TTL": "600", "Urgency": "high", "Content-Encoding": "aes128gcm",
                            "Content-Type": "application/octet-stream", "Authorization": authorization}.items():
            headers[name] = value
        return Push("/push/abc", headers, body, time.time())

    assert check_push(message(), subscriber, server_key, "high") == payload
    with pytest.raises(AssertionError):
        check_push(message(), subscriber, b64url(point(ec.generate_private_key(ec.SECP256R1()).public_key())), "high")
    # The same key, but a signature changed by one character, or claims the signature is not for.
    good = message()
    t, k = good.headers["Authorization"].removeprefix("vapid t=").split(", k=")
    header_b64, claims_b64, signature_b64 = t.split(".")
    flipped = signature_b64[:40] + ("A" if signature_b64[40] != "A" else "B") + signature_b64[41:]
    later = b64url(json.dumps({**json.loads(unb64url(claims_b64)), "exp": int(time.time()) + 60}).encode())
    for token in (f"{header_b64}.{claims_b64}.{flipped}", f"{header_b64}.{later}.{signature_b64}"):
        forged = message()
        forged.headers.replace_header("Authorization", f"vapid t={token}, k={k}")
        with pytest.raises(InvalidSignature):
            check_push(forged, subscriber, server_key, "high")
    with pytest.raises(AssertionError):
        check_push(message({"aud": "http://127.0.0.1:9999", "sub": CONTACT, "exp": int(time.time()) + 600}), subscriber, server_key, "high")
    with pytest.raises(AssertionError):
        check_push(message({"aud": service_origin, "sub": CONTACT, "exp": int(time.time()) + 25 * 3600}), subscriber, server_key, "high")
    with pytest.raises(AssertionError):
        check_push(message(), subscriber, server_key, "normal")
    with pytest.raises(http_ece.ECEException):
        check_push(message(auth=os.urandom(16)), subscriber, server_key, "high")


# The server

@pytest.fixture(scope="module")
def push_service():
    service = PushService().start()
    yield service
    service.stop()


@pytest.fixture(scope="module")
def push_server(push_service):
    """A server that may push to our push service on 127.0.0.1."""
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="waymark-browser-push-"))
    s = WaymarkServer(workdir, env={"WAYMARK_PASSWORD_COST": "4", "WAYMARK_PUSH_HOSTS": "127.0.0.1",
                                    "WAYMARK_PUSH_CONTACT": CONTACT}).start()
    s.key = s.gateway_key("push-tests")
    yield s
    s.stop()
    shutil.rmtree(workdir, ignore_errors=True)


def call(server, method: str, path: str, body=None, token: str | None = None) -> tuple[int, str, object]:
    """A JSON request: (status, content type, answer)."""
    return api_response(server.url, method, path, body, token)


def ok(server, method: str, path: str, body=None, token: str | None = None, status: int = 200):
    got, _, answer = call(server, method, path, body, token)
    assert got == status, f"{method} {path}: {got} {answer}"
    return answer


def assert_problem(answer: tuple[int, str, object], status: int, type_ending: str | None = None) -> None:
    got, ctype, problem = answer
    assert got == status, (got, problem)
    assert ctype.split(";")[0].strip() == "application/problem+json", ctype
    assert problem["status"] == status and problem["title"] and problem["type"], problem
    if type_ending:
        assert problem["type"].endswith(type_ending), problem["type"]


def register(server) -> str:
    session = ok(server, "POST", "/v1/accounts", {"username": f"pusher{secrets.token_hex(4)}", "password": PASSWORD}, status=201)
    return session["token"]


def server_key(server) -> str:
    return ok(server, "GET", "/v1/push/key")["publicKey"]


def subscribe(server, token: str, subscriber: Subscriber, status: int = 201, expiration_time: int | None = None) -> dict:
    return ok(server, "POST", "/v1/me/push-subscriptions", subscriber.to_json(expiration_time), token, status=status)


def subscriptions(server, token: str) -> list[dict]:
    return ok(server, "GET", "/v1/me/push-subscriptions", token=token)["subscriptions"]


def wait_until(predicate, timeout: float = PUSH_DEADLINE, message: str = "condition"):
    deadline = time.time() + timeout
    while not (value := predicate()):
        assert time.time() < deadline, f"timed out waiting for {message}"
        time.sleep(0.05)
    return value


# Causing notifications

def set_taken(server, lot: dict, fraction: float) -> None:
    """Every spot with a sensor reports: the first `fraction` of them occupied, the rest free."""
    spots = server.spots(lot["id"])
    states = server.states(lot["id"])
    usable = [s for s in spots if states[s["ordinal"]] != "c"]
    target = int(round(fraction * len(usable)))
    server.post_events(server.key, [(s["sensorId"], i < target) for i, s in enumerate(usable)])


def watch(server, token: str, lot: dict) -> None:
    set_taken(server, lot, 0.0)  # below 80 %: both alerts armed
    ok(server, "PUT", f"/v1/lots/{lot['id']}/watch", token=token)


def notification(server, token: str, kind: str, lot_id: str, besides: set[str] = frozenset()) -> dict:
    """Waits for a notification of `kind` about the lot in the person's inbox, other than `besides`."""
    def find():
        for n in ok(server, "GET", "/v1/me/notifications", token=token)["notifications"]:
            if n["kind"] == kind and n.get("lotId") == lot_id and n["id"] not in besides:
                return n
        return None
    return wait_until(find, message=f"a {kind} notification in the inbox")


def hold_asking(server, token: str, lot: dict) -> dict:
    """Holds a free spot of the lot, then a car parks on it: "Was it you?"."""
    states = server.states(lot["id"])
    spot = next(s for s in server.spots(lot["id"]) if s.get("sensorId") and states[s["ordinal"]] == "f")
    hold = ok(server, "POST", "/v1/holds", {"spotId": spot["id"]}, token, status=201)
    server.post_events(server.key, [(spot["sensorId"], True)])
    hold["sensorId"] = spot["sensorId"]
    return hold


def end_hold(server, token: str, hold: dict) -> None:
    ok(server, "POST", f"/v1/holds/{hold['id']}/answer", {"wasMe": True}, token)
    server.post_events(server.key, [(hold["sensorId"], False)])


def check_payload(payload: dict, n: dict) -> None:
    """The push says what the inbox shows, and opens the lot it is about."""
    assert payload["id"] == n["id"], (payload, n)
    assert payload["kind"] == n["kind"]
    assert payload["title"] == n["title"] and payload["body"] == n["body"]
    assert payload["url"] == (f"/lots/{n['lotId']}" if n.get("lotId") else "/me/inbox")
    assert when(payload["createdAt"]) == when(n["createdAt"])


# The tests

def test_prk22_the_server_key_is_a_p256_point_anyone_may_read(push_server):
    """PRK-22: GET /v1/push/key needs no token and gives the VAPID applicationServerKey: a
    65-byte uncompressed P-256 point, base64url without padding, the same every time."""
    key = server_key(push_server)
    raw = unb64url(key)
    assert len(raw) == 65 and raw[0] == 0x04
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    assert server_key(push_server) == key


def test_prk22_subscribe_like_a_browser_again_replaces_the_keys(push_server, push_service):
    """PRK-22: a person posts PushSubscription.toJSON(): 201 and it is listed; the same endpoint
    again (the browser made new keys) is 200, still one subscription, and the next push is
    encrypted for the new keys. A hold's "Was it you?" is pushed with Urgency high."""
    token = register(push_server)
    endpoint = push_service.endpoint()
    first = Subscriber(endpoint)
    created = subscribe(push_server, token, first, status=201)
    assert created["endpoint"] == endpoint and created["id"] and when(created["createdAt"])
    assert created.get("expiresAt") is None
    listed = subscriptions(push_server, token)
    assert [(s["id"], s["endpoint"]) for s in listed] == [(created["id"], endpoint)]

    renewed = Subscriber(endpoint)
    again = subscribe(push_server, token, renewed, status=200)
    assert again["endpoint"] == endpoint
    assert [s["endpoint"] for s in subscriptions(push_server, token)] == [endpoint]

    # A browser may say when the subscription ends (ms since the epoch).
    expiring = push_service.endpoint()
    ends = (int(time.time()) + 86400) * 1000
    dated = subscribe(push_server, token, Subscriber(expiring), status=201, expiration_time=ends)
    assert when(dated["expiresAt"]).timestamp() == ends / 1000
    assert sorted(s["endpoint"] for s in subscriptions(push_server, token)) == sorted([endpoint, expiring])

    hold = hold_asking(push_server, token, push_server.lot("D"))
    n = notification(push_server, token, "hold-asking", hold["lotId"])
    message = push_service.wait_for(endpoint)[0]
    payload = check_push(message, renewed, server_key(push_server), urgency="high")
    check_payload(payload, n)
    assert payload["title"] == "Was it you?" and payload["url"] == f"/lots/{hold['lotId']}"
    with pytest.raises(http_ece.ECEException):
        open_body(message.body, first)
    end_hold(push_server, token, hold)


def test_prk22_a_notification_is_pushed_once_as_rfc8030_rfc8291_rfc8292_say(push_server, push_service):
    """PRK-22: a watched lot becomes full; the subscription's endpoint gets one POST: TTL,
    Urgency normal, Content-Encoding aes128gcm, a VAPID JWT signed with the server's key for
    the endpoint's origin, and a body http_ece decrypts to the inbox's title and body, the lot's
    address and the notification's id. The next notification comes with a new key and salt,
    and the first is not sent again."""
    token = register(push_server)
    subscriber = Subscriber(push_service.endpoint())
    subscribe(push_server, token, subscriber)
    key = server_key(push_server)
    lot = push_server.lot("F")
    watch(push_server, token, lot)

    set_taken(push_server, lot, 1.0)
    full = notification(push_server, token, "lot-full", lot["id"])
    payload = check_push(push_service.wait_for(subscriber.endpoint)[0], subscriber, key, urgency="normal")
    check_payload(payload, full)
    assert payload["url"] == f"/lots/{lot['id']}"
    assert payload["title"] == f"{lot['name']} is full"

    # The next notification of the same person is the event to wait for: once it has been
    # pushed, a second copy of the first would have been sent too.
    set_taken(push_server, lot, 0.0)
    set_taken(push_server, lot, 0.9)
    almost = notification(push_server, token, "lot-almost-full", lot["id"])
    messages = push_service.wait_for(subscriber.endpoint, count=2)
    payloads = [check_push(m, subscriber, key, urgency="normal") for m in messages]
    assert sorted(p["id"] for p in payloads) == sorted([full["id"], almost["id"]]), "each notification exactly once"
    check_payload(next(p for p in payloads if p["id"] == almost["id"]), almost)
    (salt1, keyid1), (salt2, keyid2) = map(salt_and_keyid, messages)
    assert salt1 != salt2, "a fresh salt for every message (RFC 8188 §2.1)"
    assert keyid1 != keyid2, "a new ECDH key pair for every message (RFC 8291 §3.1)"
    inbox = ok(push_server, "GET", "/v1/me/notifications", token=token)["notifications"]
    assert sorted(n["id"] for n in inbox) == sorted([full["id"], almost["id"]])


def test_prk22_a_kind_switched_off_reaches_the_inbox_but_is_not_pushed(push_server, push_service):
    """PRK-22: every kind is on at first; switching "lot-full" off keeps it in the inbox but no
    push comes, while "lot-almost-full" still does; an unknown kind is a 400 problem."""
    token = register(push_server)
    kinds = ok(push_server, "GET", "/v1/me/push-preferences", token=token)["kinds"]
    assert [k["kind"] for k in kinds] == KINDS
    assert all(k["enabled"] is True and isinstance(k["label"], str) and k["label"] for k in kinds)
    assert kinds[0]["label"] == "Someone parked on a spot you hold"

    changed = ok(push_server, "PUT", "/v1/me/push-preferences", {"kinds": [{"kind": "lot-full", "enabled": False}]}, token)["kinds"]
    expected = [(k, k != "lot-full") for k in KINDS]
    assert [(k["kind"], k["enabled"]) for k in changed] == expected
    assert [(k["kind"], k["enabled"]) for k in ok(push_server, "GET", "/v1/me/push-preferences", token=token)["kinds"]] == expected
    assert_problem(call(push_server, "PUT", "/v1/me/push-preferences", {"kinds": [{"kind": "lot-empty", "enabled": False}]}, token), 400)
    assert [(k["kind"], k["enabled"]) for k in ok(push_server, "GET", "/v1/me/push-preferences", token=token)["kinds"]] == expected
    # Another person's choices are their own.
    other = register(push_server)
    assert all(k["enabled"] for k in ok(push_server, "GET", "/v1/me/push-preferences", token=other)["kinds"])

    subscriber = Subscriber(push_service.endpoint())
    subscribe(push_server, token, subscriber)
    key = server_key(push_server)
    lot = push_server.lot("I")
    watch(push_server, token, lot)
    set_taken(push_server, lot, 0.9)
    first = notification(push_server, token, "lot-almost-full", lot["id"])
    set_taken(push_server, lot, 1.0)
    full = notification(push_server, token, "lot-full", lot["id"])
    set_taken(push_server, lot, 0.0)
    set_taken(push_server, lot, 0.9)
    second = notification(push_server, token, "lot-almost-full", lot["id"], besides={first["id"]})
    # The "almost full" after it is the event to wait for: by the time it has been pushed, the
    # "full" before it would have been.
    messages = push_service.wait_for(subscriber.endpoint, count=2)
    ids = [check_push(m, subscriber, key, urgency="normal")["id"] for m in messages]
    assert sorted(ids) == sorted([first["id"], second["id"]]), ids
    assert full["id"] not in ids
    assert len(push_service.received(subscriber.endpoint)) == 2


def test_prk22_a_subscription_whose_endpoint_is_gone_is_removed_and_the_good_one_stays(push_server, push_service):
    """PRK-22: endpoints answering 410 Gone and 404 Not Found lose their subscription after the
    next notification and get nothing more; one answering 201 and one failing with 500 stay."""
    token = register(push_server)
    good, gone, missing, failing = (Subscriber(push_service.endpoint(answer)) for answer in (201, 410, 404, 500))
    for subscriber in (good, gone, missing, failing):
        subscribe(push_server, token, subscriber)
    assert len(subscriptions(push_server, token)) == 4
    key = server_key(push_server)
    lot = push_server.lot("E")
    watch(push_server, token, lot)

    set_taken(push_server, lot, 1.0)
    full = notification(push_server, token, "lot-full", lot["id"])
    for subscriber in (good, gone, missing, failing):
        check_payload(check_push(push_service.wait_for(subscriber.endpoint)[0], subscriber, key, urgency="normal"), full)
    wait_until(lambda: {s["endpoint"] for s in subscriptions(push_server, token)} == {good.endpoint, failing.endpoint},
               message="the 410 and 404 subscriptions to be removed")

    set_taken(push_server, lot, 0.0)
    set_taken(push_server, lot, 0.9)
    almost = notification(push_server, token, "lot-almost-full", lot["id"])
    assert check_push(push_service.wait_for(good.endpoint, count=2)[1], good, key, urgency="normal")["id"] == almost["id"]
    assert len(push_service.received(gone.endpoint)) == 1
    assert len(push_service.received(missing.endpoint)) == 1
    assert {s["endpoint"] for s in subscriptions(push_server, token)} == {good.endpoint, failing.endpoint}


def test_prk22_another_person_can_neither_see_nor_delete_a_subscription(push_server, push_service):
    """PRK-22: someone else's subscription is not in your list, and deleting it is 404; its
    owner deletes it (204), and then it is 404 for them too."""
    owner, other = register(push_server), register(push_server)
    mine = subscribe(push_server, owner, Subscriber(push_service.endpoint()))
    theirs = subscribe(push_server, other, Subscriber(push_service.endpoint()))
    assert [s["id"] for s in subscriptions(push_server, other)] == [theirs["id"]]
    assert_problem(call(push_server, "DELETE", f"/v1/me/push-subscriptions/{mine['id']}", token=other), 404)
    assert [s["id"] for s in subscriptions(push_server, owner)] == [mine["id"]]
    assert call(push_server, "DELETE", f"/v1/me/push-subscriptions/{mine['id']}", token=owner)[0] == 204
    assert subscriptions(push_server, owner) == []
    assert_problem(call(push_server, "DELETE", f"/v1/me/push-subscriptions/{mine['id']}", token=owner), 404)
    assert_problem(call(push_server, "DELETE", f"/v1/me/push-subscriptions/{secrets.token_hex(8)}", token=owner), 404)
    assert [s["id"] for s in subscriptions(push_server, other)] == [theirs["id"]]


def test_prk22_without_a_token_the_subscription_and_preference_endpoints_are_401(push_server, push_service):
    """PRK-22: no token, or one that is not a session's, is 401 on every endpoint of yours."""
    body = Subscriber(push_service.endpoint()).to_json()
    for token in (None, "wms_" + secrets.token_urlsafe(24)):
        for method, path, payload in [("GET", "/v1/me/push-subscriptions", None), ("POST", "/v1/me/push-subscriptions", body),
                                      ("DELETE", f"/v1/me/push-subscriptions/{secrets.token_hex(8)}", None),
                                      ("GET", "/v1/me/push-preferences", None),
                                      ("PUT", "/v1/me/push-preferences", {"kinds": [{"kind": "lot-full", "enabled": False}]})]:
            assert_problem(call(push_server, method, path, payload, token), 401)


def test_prk22_an_endpoint_that_is_not_a_known_push_service_is_refused(push_server, push_service):
    """PRK-22: the server posts only to push services it knows (WAYMARK_PUSH_HOSTS, here
    127.0.0.1): any other host is a 422 problem `push-endpoint-not-allowed`, and nothing is kept."""
    token = register(push_server)
    port = urlsplit(push_service.origin).port
    for endpoint in ["https://evil.example/push/abc", f"http://localhost:{port}/push/abc", f"http://127.0.0.2:{port}/push/abc",
                     "https://127.0.0.1.evil.example/push/abc"]:
        assert_problem(call(push_server, "POST", "/v1/me/push-subscriptions", Subscriber(endpoint).to_json(), token),
                       422, "push-endpoint-not-allowed")
    # The host is what follows the user information, not what precedes the @.
    status, _, answer = call(push_server, "POST", "/v1/me/push-subscriptions",
                             Subscriber(f"http://127.0.0.1:{port}@evil.example/push/abc").to_json(), token)
    assert status in (400, 422), (status, answer)
    assert subscriptions(push_server, token) == []


def test_prk22_malformed_keys_or_endpoints_are_400(push_server, push_service):
    """PRK-22: p256dh must be a 65-byte P-256 point and auth 16 bytes, both base64url; the
    endpoint a URL: anything else is a 400 problem, and nothing is kept."""
    token = register(push_server)
    good = Subscriber(push_service.endpoint()).to_json()
    off_curve = b"\x04" + bytes(64)  # (0, 0) is not on P-256

    def variant(**keys):
        body = json.loads(json.dumps(good))
        body["keys"].update(keys)
        return body

    bodies = [variant(p256dh=b64url(unb64url(good["keys"]["p256dh"])[:64])), variant(p256dh=b64url(off_curve)),
              variant(p256dh=good["keys"]["p256dh"] + "AA"), variant(p256dh="not base64url!"),
              variant(auth=b64url(os.urandom(15))), variant(auth=b64url(os.urandom(17))), variant(auth=""),
              {k: v for k, v in good.items() if k != "keys"}, {**good, "keys": {"p256dh": good["keys"]["p256dh"]}},
              {**good, "endpoint": "not a url"}, {**good, "endpoint": ""}]
    for body in bodies:
        assert_problem(call(push_server, "POST", "/v1/me/push-subscriptions", body, token), 400)
    assert subscriptions(push_server, token) == []
    assert call(push_server, "POST", "/v1/me/push-subscriptions", good, token)[0] == 201


def test_prk22_deleting_the_account_erases_its_subscriptions(push_server, push_service):
    """PRK-22, ACC-5: after the account is erased nothing is pushed to its endpoint any more, a
    new account sees none of its subscriptions, and the same endpoint is new (201) to the server."""
    gone = register(push_server)
    old = Subscriber(push_service.endpoint())
    subscribe(push_server, gone, old)
    lot = push_server.lot("J")
    watch(push_server, gone, lot)
    assert call(push_server, "POST", "/v1/me/deletion", {"password": PASSWORD}, gone)[0] == 204
    assert_problem(call(push_server, "GET", "/v1/me/push-subscriptions", token=gone), 401)

    fresh = register(push_server)
    assert subscriptions(push_server, fresh) == []
    new = Subscriber(push_service.endpoint())
    subscribe(push_server, fresh, new)
    watch(push_server, fresh, lot)
    set_taken(push_server, lot, 1.0)
    full = notification(push_server, fresh, "lot-full", lot["id"])
    # The new account's push is the event to wait for: the erased one's would go out with it.
    check_payload(check_push(push_service.wait_for(new.endpoint)[0], new, server_key(push_server), urgency="normal"), full)
    assert push_service.received(old.endpoint) == []
    subscribe(push_server, fresh, old, status=201)
    assert sorted(s["endpoint"] for s in subscriptions(push_server, fresh)) == sorted([old.endpoint, new.endpoint])
