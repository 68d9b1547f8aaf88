"""``momojan-sim play --web``: the same game as the terminal prompt, in a browser. A small HTTP
server on 127.0.0.1 only (a free port unless ``--port``), one page with everything inline (no
outside assets): the table as the seat view draws it and a button per legal action. The game is
:class:`simcore.studies.play.PlaySession`, saved after every decision as in the terminal.

Endpoints: ``GET /`` the page; ``GET /state`` the decision as JSON (``lines``, ``actions``,
``finished``, ``over``); ``GET /hints`` what each bot would do; ``POST /act`` with ``{"action": id}``; ``POST /undo``; ``POST /quit``
(the server stops). ``/?autoplay=1`` clicks the first action each time (the tests' whole game in
headless Chromium). A request that breaks off (a closed connection) is dropped and the server
goes on."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>momojan-sim play</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 60rem; color: #1f2430;
       background: #fbfaf7; }
h1 { font-size: 1.2rem; margin: 0 0 .3rem; } h2 { font-size: 1rem; margin: 1rem 0 .2rem; } .muted { color: #6b7280; font-size: .85rem; }
pre#table { background: #fff; border: 1px solid #e5e1d8; border-radius: 8px; padding: 12px 14px;
            font: 16px/1.5 ui-monospace, monospace; white-space: pre-wrap; }
#actions { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0; }
button { font: 15px ui-monospace, monospace; padding: 6px 12px; border-radius: 6px;
         border: 1px solid #7c3aed; background: #fff; color: #1f2430; cursor: pointer; }
button:hover { background: #f3efff; } button.side { border-color: #9ca3af; }
#over { font-weight: 600; }
</style></head><body>
<h1>momojan-sim play: <span id="title"></span></h1>
<p class="muted" id="note"></p>
<pre id="table">loading...</pre>
<div id="actions"></div>
<p><button class="side" id="hint">what would the bots do?</button>
   <button class="side" id="undo">undo my last choice</button>
   <button class="side" id="quit">save and stop</button></p>
<pre id="hints" class="muted"></pre>
<h2 class="muted" id="lasthead"></h2>
<pre id="last" class="muted"></pre>
<p id="over"></p>
<script>
const auto = new URLSearchParams(location.search).get("autoplay") === "1";
async function call(path, body) {
  const r = await fetch(path, body === undefined ? {} :
    {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  return r.json();
}
function show(s) {
  document.getElementById("title").textContent = s.title;
  document.getElementById("note").textContent = s.note;
  document.getElementById("table").textContent = s.lines.join("\\n");
  const box = document.getElementById("actions");
  box.replaceChildren();
  for (const [i, a] of s.actions.entries()) {
    const b = document.createElement("button");
    b.textContent = (i + 1) + "  " + a.label;
    b.onclick = async () => show(await call("/act", {action: a.id}));
    box.appendChild(b);
  }
  document.getElementById("over").textContent = s.finished ? s.over.join(" ") : "";
  document.getElementById("hints").textContent = "";
  document.getElementById("lasthead").textContent = s.last.length ? "how the last round ended" : "";
  document.getElementById("last").textContent = s.last.join("\\n");
  if (auto && !s.finished && s.actions.length) setTimeout(() => box.firstChild.click(), 0);
}
document.getElementById("hint").onclick = async () => {
  const h = await call("/hints");
  document.getElementById("hints").textContent = h.hints.map(x => x[0] + " would " + x[1]).join("\\n");
};
document.getElementById("undo").onclick = async () => show(await call("/undo", {}));
document.getElementById("quit").onclick = async () => {
  await call("/quit", {}); document.getElementById("over").textContent = "saved; the server stopped";
};
call("/state").then(show);
</script></body></html>
"""


class _Game:
    """The session behind the page: its current decision, forced moves taken for the human."""

    def __init__(self, session, save_path: str, title: str):
        self.session, self.save_path, self.title = session, save_path, title
        self.lock = threading.Lock()

    def state(self) -> dict:
        from simcore.studies.play import Finished, game_over_lines
        s = self.session
        while True:
            turn = s.step()
            if isinstance(turn, Finished):
                s.save(self.save_path)
                return {"title": self.title, "note": f"saved in {self.save_path}", "lines": [],
                        "actions": [], "finished": True, "last": s.round_end_lines(turn),
                        "over": game_over_lines(s.fam, turn, s.seat)}
            if len(turn.actions) > 1:
                return {"title": self.title, "note": f"saved as you go in {self.save_path}",
                        "lines": turn.lines, "finished": False, "over": [],
                        "last": s.round_end_lines(turn),
                        "actions": [{"id": a, "label": lab} for a, lab in turn.actions]}
            s.play(turn.actions[0][0], turn)   # nothing to choose: taken for the human
            s.save(self.save_path)

    def act(self, action) -> dict:
        from simcore.studies.play import Turn
        turn = self.session.step()
        if isinstance(turn, Turn) and action in [a for a, _ in turn.actions]:
            self.session.play(action, turn)
            self.session.save(self.save_path)
        return self.state()

    def hints(self) -> list:
        from simcore.studies.play import Turn
        self.state()   # past any forced move
        turn = self.session.step()
        return self.session.hints(turn) if isinstance(turn, Turn) else []

    def undo(self) -> dict:
        self.session.undo()
        self.session.save(self.save_path)
        return self.state()


def bind(port: int):
    """A listening socket on 127.0.0.1 (``port`` 0: a free one), before anything is written;
    the :class:`~simcore.errors.InputError` of a port that cannot be had."""
    from simcore.errors import InputError
    from socketserver import TCPServer
    try:
        return TCPServer(("127.0.0.1", port), None, bind_and_activate=True)
    except OSError as e:
        raise InputError(f"--port {port}: cannot listen on 127.0.0.1 ({e.strerror})") from None


def serve(session, save_path: str, title: str, bound, echo=print) -> None:
    """Serve the game on ``bound`` (from :func:`bind`) until /quit or Ctrl-C."""
    game = _Game(session, save_path, title)
    stop = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):   # quiet: the terminal shows the URL and the end
            pass

        def _send(self, code: int, body: bytes, kind: str) -> None:
            try:
                self.send_response(code)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass   # the page went away: the game is saved, nothing to do

        def _json(self, data: dict) -> None:
            self._send(200, json.dumps(data).encode(), "application/json")

        def do_GET(self):
            path = self.path.split("?")[0]
            if path == "/":
                self._send(200, PAGE.encode(), "text/html; charset=utf-8")
            elif path == "/state":
                with game.lock:
                    self._json(game.state())
            elif path == "/hints":
                with game.lock:
                    self._json({"hints": game.hints()})
            else:
                self._send(404, b"not found", "text/plain")

        def do_POST(self):
            try:
                n = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(n) or b"{}") if n else {}
            except (ValueError, OSError):
                self._send(400, b"bad request", "text/plain")
                return
            with game.lock:
                if self.path == "/act" and isinstance(body.get("action"), int):
                    self._json(game.act(body["action"]))
                elif self.path == "/undo":
                    self._json(game.undo())
                elif self.path == "/quit":
                    game.session.save(save_path)
                    self._json({"stopped": True})
                    stop.set()
                else:
                    self._send(400, b"bad request", "text/plain")

    server = ThreadingHTTPServer(bound.server_address, Handler, bind_and_activate=False)
    server.socket.close()
    server.socket = bound.socket   # the socket bind() took: no window for another process
    server.daemon_threads = True
    echo(f"momojan-sim: playing at http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C or "
         "'save and stop' ends it)")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        while not stop.wait(0.2):
            pass
    finally:
        server.shutdown()
        server.server_close()
