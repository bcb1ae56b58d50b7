"""The pictures: every one the README or docs/ shows is committed and made by scripts/screenshots.py, and nothing
else is committed under assets/screenshots/ (tests write theirs to test-artifacts/)."""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PICTURE = re.compile(r"!\[[^\]]*\]\(([^)\s]+\.png)\)")


def _shown() -> set[str]:
    names = set()
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for target in PICTURE.findall(page.read_text(encoding="utf-8")):
            path = (page.parent / target).resolve()
            assert path.is_file(), f"{page.relative_to(ROOT)} shows a missing picture: {target}"
            assert path.parent == ROOT / "assets" / "screenshots", f"{page.relative_to(ROOT)}: {target} is elsewhere"
            names.add(path.stem)
    return names


def test_every_picture_shown_is_made_by_the_script_and_nothing_else_is_committed():
    sys.path.insert(0, str(ROOT / "scripts"))
    import screenshots

    shown = _shown()
    assert shown, "no page shows a picture: the pattern above no longer matches the docs"
    committed = {p.stem for p in (ROOT / "assets" / "screenshots").glob("*.png")}
    # The Space's card picture: named by the README's front matter (`thumbnail:`), made by the script too.
    card = set(re.findall(r"^thumbnail: \S+/assets/screenshots/(\w+)\.png$", (ROOT / "README.md").read_text(), re.M))
    assert card and (ROOT / "assets" / "screenshots" / f"{min(card)}.png").is_file()
    assert shown | card == set(screenshots.SHOTS), "scripts/screenshots.py SHOTS and the pictures shown differ"
    assert committed == shown | card, f"committed but shown nowhere: {sorted(committed - shown - card)}"


def test_tests_write_screenshots_only_to_test_artifacts(tmp_path, monkeypatch):
    from tests.e2e import helpers

    monkeypatch.setattr(helpers, "ARTIFACTS", tmp_path / "test-artifacts")

    class Page:
        def screenshot(self, path, full_page):
            Path(path).write_bytes(b"png")

    path = helpers.save_screenshot(Page(), "x")
    assert path == tmp_path / "test-artifacts" / "x.png" and path.read_bytes() == b"png"


def test_a_checkpoint_pictures_the_page_only_when_asked_and_names_a_later_failure(tmp_path, monkeypatch):
    from tests.e2e import helpers

    monkeypatch.setattr(helpers, "ARTIFACTS", tmp_path / "test-artifacts")
    monkeypatch.setenv("PYTEST_CURRENT_TEST", "test_x.py::test_y (call)")

    class Page:
        def screenshot(self, path, full_page):
            Path(path).write_bytes(b"png")

    page = Page()
    monkeypatch.setattr(helpers, "EVERY_CHECKPOINT", False)
    helpers.checkpoint(page, "view-a")
    assert not (tmp_path / "test-artifacts").exists()  # a passing run writes no picture
    helpers.picture_failure(page)
    assert (tmp_path / "test-artifacts" / "FAILED-test_y-view-a.png").is_file()
    monkeypatch.setattr(helpers, "EVERY_CHECKPOINT", True)
    helpers.checkpoint(page, "view-b")
    assert (tmp_path / "test-artifacts" / "view-b.png").is_file()
