"""Helpers for browser tests: screenshots, waiting for Gradio to settle."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "assets" / "screenshots"
ARTIFACTS = ROOT / "test-artifacts"


def save_screenshot(page, name: str) -> Path:
    """Full-page PNG: into assets/screenshots/ when PLAYGROUND_SCREENSHOTS=1 (README images), else test-artifacts/."""
    folder = SCREENSHOTS if os.environ.get("PLAYGROUND_SCREENSHOTS") == "1" else ARTIFACTS
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def open_tab(page, tab_id: str) -> None:
    """Open a tab through the share-link mechanism (`?tab=`), which also proves URL restore works."""
    page.goto(f"{page.app_url}?tab={tab_id}")
    page.wait_for_selector(".gradio-container", timeout=30_000)
