"""A trail's community forum in the browser (TRL-5): the first visit explains it, the + button
opens the drop-pin map with a pin fixed in the middle, Create post brings back a picture of the
spot above the text, the post is listed dated and newest first, its picture shows the pin on the
map, and another's post can be reported. Offline (TRL-11): a comment and a forum post written
without a connection wait in the outbox and are sent once when the server is back, and a
favourite trail's page and picture read offline without having been opened."""
from __future__ import annotations

import secrets

from helpers import App, api, new_account, use_session

PASSWORD = "Trails#2026pass"


def register(url: str, name: str) -> dict:
    return new_account(url, name, PASSWORD)


def sign_in(app: App, session: dict) -> None:
    use_session(app, session)


def trails(app: App) -> dict:
    return app.js("return window.waymark.trails()")


def test_TRL_5_pin_a_post_on_the_forum_and_see_it_on_the_map(driver, server, artifacts):
    app = App(driver, server.url).open("/trails")
    ana, ben = register(server.url, "ana"), register(server.url, "ben")
    _, page = api(server.url, "GET", "/v1/trails/big-falls")
    head = page["summary"]["trailhead"]
    status, _ = api(server.url, "PUT", f"/v1/trails/big-falls/forum/ben-{secrets.token_hex(6)}",
                    {"text": "The upper pool is closed for nesting birds.", "pin": {"latitude": head["latitude"] + 0.002, "longitude": head["longitude"]}},
                    token=ben["token"])
    assert status == 201
    sign_in(app, ana)
    app.open("/trails/big-falls")
    link = app.wait(lambda: app.els("#trail-forum-link"), timeout=20, message="the Community forum button")[0]
    app.js("arguments[0].click()", link)
    app.dialog_action("forum-intro", "ok")
    app.wait(lambda: "upper pool" in app.el("#trail-posts").text, timeout=15, message="Ben's post listed")
    listed = app.el("#trail-posts .trail-post")
    assert "(you)" not in listed.text and "°" in listed.text, "dated, with the pin's coordinates"
    assert app.els("#trail-posts .trail-pin-picture"), "a picture of the spot"

    app.js("arguments[0].click()", app.el("#trail-posts .trail-report"))
    app.dialog_action("report-post", "wrong")

    app.js("arguments[0].click()", app.el("#trail-forum-new"))
    app.wait(lambda: app.js("return location.pathname") == "/trails/big-falls/forum/pin", message="the drop-pin map")
    app.wait(lambda: app.el("#trails-drop-pin").is_displayed(), message="the pin in the middle")
    app.screenshot(artifacts / "trails-phone-drop-pin.png")
    # Move the map a little north: the pin now marks a spot north of the trailhead.
    app.js("const v = window.waymark.map.getView(); window.waymark.map.setView({center: {lat: v.center.lat + 0.001, lon: v.center.lon}})")
    app.js("arguments[0].click()", app.el("#trail-create-post"))
    app.wait(lambda: app.els("#trail-post-text"), message="the post form with the spot")
    compose = trails(app)["compose"]["pin"]
    assert compose["latitude"] > head["latitude"] + 0.0005 and abs(compose["longitude"] - head["longitude"]) < 0.01, compose
    app.el("#trail-post-text").send_keys("Water at the second bridge, filter it.")
    app.js("arguments[0].click()", app.el("#trail-post-send"))
    app.wait(lambda: "second bridge" in app.el("#trail-posts").text, timeout=15, message="the post listed")
    first = app.el("#trail-posts .trail-post")
    assert "second bridge" in first.text and "(you)" in first.text, "newest first, marked as one's own"
    assert not app.els("#trail-post-text"), "the form closes once the post is sent"
    app.screenshot(artifacts / "trails-phone-forum.png")

    app.js("arguments[0].click()", app.el("#trail-posts .trail-post .trail-pin-button"))
    app.wait(lambda: trails(app)["pin"] is not None, message="the pin on the map")
    assert abs(trails(app)["pin"]["latitude"] - compose["latitude"]) < 1e-6

    _, forum = api(server.url, "GET", "/v1/trails/big-falls/forum")
    assert [p["text"] for p in forum["posts"]][:2] == ["Water at the second bridge, filter it.", "The upper pool is closed for nesting birds."]
    # Dated as the trail's region tells time (Pacific), not the browser's zone (UTC here).
    from datetime import datetime
    from zoneinfo import ZoneInfo
    assert page["timeZone"] == "America/Los_Angeles"
    at = datetime.fromisoformat(forum["posts"][0]["createdAt"].replace("Z", "+00:00")).astimezone(ZoneInfo(page["timeZone"]))
    assert f"{at.hour % 12 or 12}:{at.minute:02d}\u202f{'AM' if at.hour < 12 else 'PM'}" in first.text.replace(" AM", "\u202fAM").replace(" PM", "\u202fPM"), first.text


def test_TRL_11_a_comment_and_a_post_written_offline_are_sent_once(driver, own_server, artifacts):
    ana = register(own_server.url, "ana")
    app = App(driver, own_server.url).open("/trails")
    sign_in(app, ana)
    app.js("localStorage.setItem('waymark.trails.forum-intro', '1')")
    app.open("/trails/heart-rock")
    app.wait(lambda: app.els("#trail-comment-leave"), timeout=20, message="the page, read once online")

    own_server.stop()
    app.js("arguments[0].click()", app.el("#trail-comment-leave"))
    app.js("arguments[0].click()", app.el('.trail-star-pick[data-stars="5"]'))
    app.el("#trail-comment-text").send_keys("Written on the trail with no signal.")
    app.js("arguments[0].click()", app.el("#trail-comment-save"))
    app.wait(lambda: "Waiting to send" in app.el("#trail-comment-mine").text, message="the comment waits")

    app.js("arguments[0].click()", app.el("#trail-forum-link"))
    app.wait(lambda: app.js("return location.pathname") == "/trails/heart-rock/forum", message="the forum, offline")
    # The screen waits for the network to fail before it falls back on saved copies: on a busy
    # machine that has taken more than ten seconds.
    app.wait(lambda: "connection" in app.el("#trail-forum-status").text, timeout=30, message="says the forum needs a connection")
    app.js("arguments[0].click()", app.el("#trail-forum-new"))
    app.js("arguments[0].click()", app.wait(lambda: app.els("#trail-create-post"), message="drop-pin map offline")[0])
    app.wait(lambda: app.els("#trail-post-text"), message="the post form")
    app.el("#trail-post-text").send_keys("Trail washed out past the rock.")
    app.js("arguments[0].click()", app.el("#trail-post-send"))
    app.wait(lambda: "Waiting to send" in app.el("#trail-forum-waiting").text, message="the post waits")
    app.screenshot(artifacts / "trails-phone-forum-offline.png")

    own_server.start()
    app.js("window.dispatchEvent(new Event('online'))")
    app.wait(lambda: "washed out" in app.el("#trail-posts").text and not app.els("#trail-forum-waiting .trail-post"),
             timeout=45, message="the post sent when back online")
    _, forum = api(own_server.url, "GET", "/v1/trails/heart-rock/forum")
    assert [p["text"] for p in forum["posts"]] == ["Trail washed out past the rock."], "sent once"
    _, comments = api(own_server.url, "GET", "/v1/trails/heart-rock/comments", token=ana["token"])
    assert comments["mine"]["stars"] == 5 and comments["mine"]["text"] == "Written on the trail with no signal."


def cached(app: App, path: str) -> bool:
    """Whether the service worker keeps a copy of `path` (its API cache)."""
    return app.d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        caches.open('waymark-api-v1').then((c) => c.keys()).then((keys) => done(keys.some((k) => new URL(k.url).pathname === arguments[0])));
    """, path)


def test_TRL_11_a_favourite_trail_reads_offline_without_being_opened_first(driver, own_server, artifacts):
    ana = register(own_server.url, "ana")
    status, _ = api(own_server.url, "PUT", "/v1/me/trail-favourites/big-falls", None, token=ana["token"])
    assert status == 204
    app = App(driver, own_server.url).open("/trails")
    app.wait(lambda: app.js("return !!navigator.serviceWorker.controller"), timeout=20, message="service worker")
    sign_in(app, ana)
    app.open("/trails")
    app.wait(lambda: cached(app, "/v1/trails/big-falls"), timeout=30, message="the favourite's page kept")
    _, page = api(own_server.url, "GET", "/v1/trails/big-falls")
    picture = page["summary"]["pictureURL"]
    app.wait(lambda: cached(app, picture), timeout=30, message="its picture kept")

    own_server.stop()
    app.open("/trails/big-falls")
    app.wait(lambda: "Offline" in app.el(".trail-page").text, timeout=20, message="the page from the saved copy")
    assert app.el(".trail-name").text == "Big Falls Trail"
    app.wait(lambda: app.js("const i = document.querySelector('.trail-picture'); return !!i && i.complete && i.naturalWidth > 0"),
             message="the trailhead picture, offline")
    app.screenshot(artifacts / "trails-phone-favourite-offline.png")


def test_TRL_12_an_operator_hides_a_reported_post_dismisses_a_comment_and_replaces_a_picture(driver, own_server, artifacts, tmp_path):
    import subprocess
    from helpers import Accounts
    from test_map_tools import png
    olive, ana, ben = register(own_server.url, "olive"), register(own_server.url, "ana"), register(own_server.url, "ben")
    out = subprocess.run([str(own_server.binary), "operator", "grant", olive["user"]["username"], "--database", str(own_server.database)],
                         cwd=own_server.workdir, capture_output=True, text=True, env=own_server.env)
    assert out.returncode == 0, out.stderr
    _, page = api(own_server.url, "GET", "/v1/trails/heart-rock")
    head = page["summary"]["trailhead"]
    post_id = f"spam-{secrets.token_hex(6)}"
    assert api(own_server.url, "PUT", f"/v1/trails/heart-rock/forum/{post_id}", {"text": "Cheap boots at our shop!", "pin": head}, token=ana["token"])[0] == 201
    _, comment = api(own_server.url, "PUT", "/v1/trails/heart-rock/comments/me", {"stars": 2, "text": "Too crowded on Sundays."}, token=ana["token"])
    assert api(own_server.url, "POST", f"/v1/trail-forum-posts/{post_id}/reports", {"reason": "spam"}, token=ben["token"])[0] == 204
    assert api(own_server.url, "POST", f"/v1/trail-comments/{comment['id']}/reports", {"reason": "wrong"}, token=ben["token"])[0] == 204

    app = App(driver, own_server.url).open("/trails")
    _, me = api(own_server.url, "GET", "/v1/me", token=olive["token"])
    assert me["isOperator"] is True
    sign_in(app, {"token": olive["token"], "user": me})
    app.open("/trails/heart-rock")
    acc = Accounts(app)
    app.js("window.waymark.openAccount()")
    acc.wait_view("account")
    acc.menu("moderation")
    acc.wait_view("moderation")
    app.wait(lambda: len(app.els("#moderation-list .moderation-item")) == 2, timeout=15, message="the post and the comment queued")
    assert "Spam or advertising" in app.el('#moderation-list [data-kind="post"]').text
    assert "Heart Rock Trail" in app.el('#moderation-list [data-kind="comment"]').text
    app.screenshot(artifacts / "trails-phone-moderation.png")
    app.el('#moderation-list [data-kind="post"] [data-action="hide"]').click()
    app.wait(lambda: "Hidden from hikers" in app.el('#moderation-list [data-kind="post"]').text, message="the post hidden")
    app.el('#moderation-list [data-kind="comment"] [data-action="dismiss"]').click()
    app.wait(lambda: not app.els('#moderation-list [data-kind="comment"]'), message="the comment's reports dismissed")
    assert api(own_server.url, "GET", "/v1/trails/heart-rock/forum")[1]["total"] == 0
    assert api(own_server.url, "GET", "/v1/trails/heart-rock/comments")[1]["total"] == 1

    # The trailhead picture, replaced from the page.
    app.open("/trails/heart-rock")
    picture = tmp_path / "trailhead.png"
    picture.write_bytes(png((90, 140, 70), 64))
    app.wait(lambda: app.els("#trail-picture-file"), timeout=20, message="the operator's picture control")[0].send_keys(str(picture))
    app.wait(lambda: api(own_server.url, "GET", "/v1/trails/heart-rock")[1]["summary"].get("pictureURL") != page["summary"].get("pictureURL"),
             timeout=15, message="the new picture on the trail")
