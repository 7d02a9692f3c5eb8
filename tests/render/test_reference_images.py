"""The reference renders in docs/images are what the renderer draws now, byte for byte.

docs/images/make_images.py draws each of them from a fixed position; this test draws them again and
compares. A change to the pictures of one game (arena's power-ups, megachess's kingdoms) leaves the
others' bytes as they were (neisg, sandbox), and a deliberate change shows here until the images
are made again (``.venv/bin/python docs/images/make_images.py``).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"


def _make_images():
    spec = importlib.util.spec_from_file_location("make_images", IMAGES / "make_images.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKE = _make_images()
NAMES = sorted(MAKE.images())
#: images made another way: the README's board of a demo session, the web viewer's screenshot
#: (docs/images/make_web_viewer.py, taken in Chromium)
ELSEWHERE = {"demo-board.png", "web-viewer.png"}


def test_every_reference_image_is_drawn_by_the_script():
    assert {path.name for path in IMAGES.glob("*.png")} - ELSEWHERE == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_the_reference_image_is_what_the_renderer_draws(name):
    drawn = MAKE.images()[name]()
    assert drawn == (IMAGES / name).read_bytes(), (
        f"docs/images/{name} differs from what the renderer draws: if the change is meant, run "
        f".venv/bin/python docs/images/make_images.py")
