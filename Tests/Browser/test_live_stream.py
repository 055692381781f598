"""PRK-5: the live stream the map listens to must survive what phones do all day: open the
app, lose signal, close the tab, while sensors keep reporting. Clients here are plain sockets
so the race is hit quickly; a browser does the same when a tab closes."""
from __future__ import annotations

import random
import socket
import threading
import time
import urllib.request


def test_prk5_clients_leaving_the_live_stream_while_events_flow_never_stall_the_server(own_server):
    server = own_server
    key = server.gateway_key("churn")
    site = server.site["id"]
    spots = server.spots(server.lot("NPS")["id"])
    stop = threading.Event()

    def report():
        i = 0
        while not stop.is_set():
            batch = [(spots[(i + k) % len(spots)]["sensorId"], (i // len(spots)) % 2 == 0) for k in range(20)]
            i += 20
            try:
                server.post_events(key, batch)
            except OSError:
                pass

    def client():
        with socket.create_connection(("127.0.0.1", server.port), timeout=3) as c:
            c.sendall(f"GET /v1/sites/{site}/live HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n".encode())
            try:
                c.recv(1024)
            except OSError:
                pass
            time.sleep(random.random() * 0.3)

    reporter = threading.Thread(target=report, daemon=True)
    reporter.start()
    try:
        deadline = time.time() + 30
        while time.time() < deadline:
            clients = [threading.Thread(target=client) for _ in range(8)]
            for t in clients:
                t.start()
            for t in clients:
                t.join()
            try:
                urllib.request.urlopen(f"{server.url}/health", timeout=5).close()
            except OSError as error:
                # Seen so far: LiveHub.pollOnce yields to subscribers while holding its state lock,
                # and a subscriber's onTermination (run inside task cancellation, holding the
                # task's status lock) takes that same lock: a lock-order deadlock that parks
                # the whole cooperative thread pool.
                raise AssertionError(
                    f"the server stopped answering while live-stream clients came and went ({error})") from None
    finally:
        stop.set()
        reporter.join(timeout=15)
