"""Friends, messages and location sharing in two browsers (TRL-8, TRL-9): Ana finds Ben by his
username and asks; Ben sees the request and accepts; they write to each other live (Ben's
unread count on the Trails tab, his reply appearing in Ana's open conversation, an edit and a
deletion reaching him without a reload; a message written offline is sent once when the
connection is back); both turn on location sharing and see each other on
the map as their pictures, a tap naming the friend and the time; Ben turns it off and his
position is gone, for Ana and on the server."""
from __future__ import annotations

import secrets
from datetime import datetime, timedelta, timezone

from conftest import make_driver
from helpers import App, api, new_account, use_session

PASSWORD = "Friends#2026pass"


def register(url: str, name: str) -> dict:
    return new_account(url, name, PASSWORD)


def sign_in(app: App, session: dict) -> None:
    use_session(app, session)


def click(app: App, css: str, timeout: float = 15) -> None:
    app.js("arguments[0].click()", app.wait(lambda: app.els(css), timeout=timeout, message=css)[0])


def texts(app: App, css: str) -> list[str]:
    return app.js("return [...document.querySelectorAll(arguments[0])].map((e) => e.textContent)", css)


def test_TRL_8_TRL_9_two_people_befriend_message_live_and_share_where_they_are(driver, server, artifacts):
    ana, ben = register(server.url, "ana"), register(server.url, "ben")
    a = App(driver, server.url).open("/trails")
    sign_in(a, ana)
    other = make_driver(width=1280, height=800, pixel_ratio=1, touch=False)
    try:
        b = App(other, server.url).open("/trails")
        sign_in(b, ben)

        # Ana finds Ben by the start of his username and asks.
        a.open("/trails/friends")
        a.el("#friends-search").send_keys(ben["user"]["username"][:6])
        click(a, f'#people-found [data-person="{ben["user"]["id"]}"][data-action="add"]')
        a.wait(lambda: "Request sent" in a.el("#people-found").text, message="the request sent")
        a.wait(lambda: ben["user"]["username"] in a.el("#friends-sent").text, message="listed under Requests you sent")
        a.screenshot(artifacts / "friends-phone-search.png")

        # Ben sees it in Friends and accepts.
        b.open("/trails/friends")
        b.wait(lambda: ana["user"]["username"] in b.el("#friend-requests").text, message="Ana's request")
        click(b, '#friend-requests [data-action="accept"]')
        b.wait(lambda: ana["user"]["username"] in b.el("#friends-list").text, message="Ana among Ben's friends")
        b.screenshot(artifacts / "friends-desktop-list.png")

        # Friends see each other's hikes: Ben opens Ana's page from his list.
        _, trail = api(server.url, "GET", "/v1/trails/heart-rock")
        head = trail["summary"]["trailhead"]
        started = datetime.now(timezone.utc) - timedelta(hours=2)
        fixes = [[i * 10, head["latitude"] + i * 12 / 111_195, head["longitude"], 5, 1500 + i * 0.5] for i in range(40)]
        status, _ = api(server.url, "PUT", f"/v1/me/hikes/hike-{secrets.token_hex(6)}", {
            "trailId": "heart-rock", "startedAt": started.isoformat(), "endedAt": (started + timedelta(minutes=8)).isoformat(), "fixes": fixes},
            token=ana["token"])
        assert status == 201
        click(b, f'#friends-list [data-person="{ana["user"]["id"]}"] .person-link')
        b.wait(lambda: "Heart Rock Trail" in b.el("#friend-hikes").text, message="Ana's hike on her page")
        said = b.el("#friend-hikes").text
        assert "kcal" not in said and "steps" in said and "T0" not in said and "Z" not in said, said
        click(b, '#friend-hikes [data-action="show"]')
        b.wait(lambda: b.js("return window.waymark.trails().hike?.length ?? 0") > 1, message="her path on the map")
        b.screenshot(artifacts / "friends-desktop-friend-hikes.png")

        # Ana writes from her friends list; Ben sees the unread count on the Trails tab and in Messages.
        a.open("/trails/friends")
        click(a, f'#friends-list [data-person="{ben["user"]["id"]}"] [data-action="message"]')
        a.wait(lambda: a.js("return location.pathname").startswith("/trails/messages/"), message="the conversation")
        thread = a.js("return location.pathname").split("/")[-1]
        a.wait(lambda: a.els("#message-text"), message="the composer")
        a.el("#message-text").send_keys("Meet at Heart Rock at 8?\n")
        a.wait(lambda: texts(a, "#thread-messages .message.mine .message-text") == ["Meet at Heart Rock at 8?"], message="Ana's message on the right")
        a.wait(lambda: "Waiting" not in a.el("#thread-messages").text, message="sent")
        b.open("/trails/messages")
        b.wait(lambda: b.js("return document.querySelector('#nav-trails .badge')?.textContent") == "1", timeout=15, message="1 unread on the Trails tab")
        b.wait(lambda: b.els(f'#thread-list [data-thread="{thread}"] .badge'), message="the unread count on the conversation")
        b.screenshot(artifacts / "messages-desktop-list.png")
        click(b, f'#thread-list [data-thread="{thread}"] a')
        b.wait(lambda: texts(b, "#thread-messages .message.theirs .message-text") == ["Meet at Heart Rock at 8?"], message="Ana's message on the left")
        b.wait(lambda: b.js("return document.querySelector('#nav-trails .badge')?.hidden") is True, message="read: no unread count")

        # Ben replies; it appears in Ana's open conversation without a reload.
        b.el("#message-text").send_keys("Yes! I'll bring the map.\n")
        a.wait(lambda: "Yes! I'll bring the map." in texts(a, "#thread-messages .message.theirs .message-text"), timeout=15, message="Ben's reply, live")
        a.screenshot(artifacts / "messages-phone-thread.png")
        assert a.js("return document.querySelector('#nav-trails .badge')?.hidden ?? true"), "a message read in the open conversation is not counted unread"

        # Ana edits her message, then deletes it: Ben sees both, live.
        click(a, "#thread-messages .message.mine .message-more")
        click(a, '#thread-messages .message.mine [data-action="edit"]')
        box = a.el("#thread-messages .message-edit")
        box.clear()
        box.send_keys("Meet at Heart Rock at 8:30?")
        click(a, '#thread-messages [data-action="save"]')
        b.wait(lambda: "Meet at Heart Rock at 8:30?" in texts(b, "#thread-messages .message.theirs .message-text"), timeout=15, message="the edit, live")
        b.wait(lambda: "edited" in b.el("#thread-messages .message.theirs .message-meta").text, message="marked edited")
        click(a, "#thread-messages .message.mine .message-more")
        click(a, '#thread-messages .message.mine [data-action="delete"]')
        a.dialog_action("delete-message", "confirm")
        b.wait(lambda: texts(b, "#thread-messages .message.theirs .message-text") == [], timeout=15, message="the deletion, live")
        # Offline, Ana's message waits in the outbox; back online it is sent, once.
        a.cdp("Network.enable", {})
        a.cdp("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        a.el("#message-text").send_keys("Running late, sorry\n")
        a.wait(lambda: "Waiting to send" in a.el("#thread-messages .message.mine.pending").text, message="the message waiting")
        a.screenshot(artifacts / "messages-phone-offline.png")
        a.cdp("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        b.wait(lambda: "Running late, sorry" in texts(b, "#thread-messages .message.theirs .message-text"), timeout=40, message="the queued message, sent")
        _, page = api(server.url, "GET", f"/v1/me/threads/{thread}/messages", token=ben["token"])
        assert [m["text"] for m in page["messages"]].count("Running late, sorry") == 1, page
        a.wait(lambda: not a.els("#thread-messages .message.pending"), message="no longer waiting")

        # Removing is disabled with only one other person in the conversation.
        click(b, "#thread-options")
        assert b.js("return document.getElementById('thread-remove').disabled"), "Remove friends disabled for two"
        b.screenshot(artifacts / "messages-desktop-thread-menu.png")

        # Both share their position; each sees the other on the map, a tap names them.
        spots = {"a": (34.2456, -116.8873), "b": (34.2462, -116.8861)}
        for app, who in ((a, "a"), (b, "b")):
            app.cdp("Browser.grantPermissions", {"origin": server.url, "permissions": ["geolocation"]})
            app.cdp("Emulation.setGeolocationOverride", {"latitude": spots[who][0], "longitude": spots[who][1], "accuracy": 4})
        for app in (a, b):
            app.open("/trails/friends")
            assert not app.el("#share-location").is_selected(), "off by default"
            click(app, "#share-location")
            app.wait(lambda: "On." in app.el("#share-location-note").text, message="sharing on")
        a.wait(lambda: api(server.url, "GET", "/v1/me/friend-positions", token=ben["token"])[1]["friends"], message="Ana's position reaches Ben")
        b.wait(lambda: api(server.url, "GET", "/v1/me/friend-positions", token=ana["token"])[1]["friends"], message="Ben's position reaches Ana")
        a.screenshot(artifacts / "friends-phone-sharing.png")
        a.open("/trails")
        a.wait(lambda: a.js("return window.waymark.map.getView().zoom") is not None, message="the map")
        # Ben's picture is drawn once Ana's map has read where her friends are; a tap on it names him.
        # Browse fits the map to the trails when it opens: Ben is put in the upper half of the
        # phone's map, above the sheet, once that is done.
        def ben_in_view():
            def where():
                drawn = a.js("window.waymark.map.renderNow(); return window.waymark.trails().friends")
                ok = [f["id"] for f in drawn] == [ben["user"]["id"]] and 0 < drawn[0]["x"] < 390 and 100 < drawn[0]["y"] < 400
                return drawn[0] if ok else None
            first = where()
            if first is None:
                a.js("window.waymark.map.setView({center: {lat: arguments[0] - 0.0022, lon: arguments[1]}, zoom: 16})", *spots["b"])
                return None
            # No animation moves him: two frames in a row draw him at the same spot.
            return first if where() == first else None
        drawn = a.wait(ben_in_view, timeout=20, message="Ben drawn on Ana's map, at rest")
        at = a.js("const r = document.getElementById('map').getBoundingClientRect(); return [r.left, r.top]")
        a.tap(drawn["x"] + at[0], drawn["y"] + at[1])
        a.dialog("friend-position")
        said = a.el("#dialog").text
        assert ben["user"]["username"] in said and ("Here" in said or "Last seen" in said) and "Z" not in said, said
        a.screenshot(artifacts / "friends-phone-map.png")
        a.dialog_action("friend-position", "close")

        # Ben stops sharing: his position is deleted, and Ana sees nothing of him.
        b.open("/trails/friends")
        click(b, "#share-location")
        b.wait(lambda: "Off." in b.el("#share-location-note").text, message="sharing off")
        status, mine = api(server.url, "GET", "/v1/me/location-sharing", token=ben["token"])
        assert status == 200 and mine["sharing"] is False and "position" not in mine, mine
        assert api(server.url, "GET", "/v1/me/friend-positions", token=ana["token"])[1]["friends"] == []
        # The only errors: the requests made while Ana was offline.
        assert [e for e in a.console_errors() if "ERR_INTERNET_DISCONNECTED" not in e] == [] and b.console_errors() == []
    finally:
        other.quit()
