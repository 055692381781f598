"""A local stand-in for Open-Meteo (TRL-3): serves the recorded forecast answer of
Tests/WaymarkCoreTests/Fixtures/weather, re-dated so its first day is today at the asked place
(a recording from 2024 would otherwise be all past days), and counts the requests. The answer's
shape, codes and temperatures are the recording's own."""
from __future__ import annotations

import datetime
import http.server
import json
import pathlib
import threading
import urllib.parse

from helpers import answer_json

RECORDED = pathlib.Path(__file__).resolve().parents[1] / "WaymarkCoreTests" / "Fixtures" / "weather" / "open_meteo_daily_forecast_example.json"


class RecordedWeather:
    def __init__(self):
        self.requests: list[str] = []
        self.down = False
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (the standard library's name)
                outer.requests.append(self.path)
                if outer.down:
                    self.send_response(502)
                    self.end_headers()
                    return
                body = json.loads(RECORDED.read_text())
                # The trailhead's zone: Southern California for every demo trail.
                today = datetime.datetime.now(datetime.timezone(datetime.timedelta(hours=-8))).date()
                body["timezone"] = "America/Los_Angeles"
                body["daily"]["time"] = [(today + datetime.timedelta(days=i)).isoformat() for i in range(len(body["daily"]["time"]))]
                answer_json(self, json.dumps(body).encode())

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def stop(self) -> None:
        self.httpd.shutdown()
