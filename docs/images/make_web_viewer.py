"""Take the README's screenshot of the web viewer (docs/images/web-viewer.png) with Chromium.

    .venv/bin/python docs/images/make_web_viewer.py [DIR]

Plays (or reuses) the demo session in DIR (default: a temporary folder; 12 players, 8 updates),
serves it with ``python -m bot web`` and photographs the board page at update 8, found by the
search box: the first player's army. Needs /usr/bin/chromium and Playwright.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "web-viewer.png"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    subprocess.run([sys.executable, "-m", "bot", "demo", "--players", "12", "--updates", "8", "--out", str(folder)],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "bot", "web", "--store-url",
                               f"sqlite:///{folder.resolve() / 'skirmish.sqlite3'}", "--port", str(port)],
                              cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        base = server.stdout.readline().strip().removeprefix("viewer: ").rstrip("/")
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 760}, device_scale_factor=1)
            page.goto(f"{base}/games/1?update=8", wait_until="networkidle")
            page.wait_for_selector("body[data-ready=true]")
            page.fill("#search-text", page.inner_text("#players li a >> nth=0"))
            page.click("#search button")
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(1500)      # every tile loaded and faded in
            page.screenshot(path=str(OUT))
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=20)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
