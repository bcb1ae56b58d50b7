"""mkdocs hooks (mkdocs.yml `hooks:`): the site links to a few files outside docs/, and its nav tolerates pages
that other work has not written yet.

- Pages link to the README, bench/RESULTS.md and assets/screenshots/ with their real relative paths, so the links
  also work when the Markdown is read on disk or on a code host. Those files are added to the site under `repo/`,
  and every relative link is rewritten to where its target lands in the site. A link whose target is not one of
  these files, or does not exist, is left as written, so `mkdocs build --strict` still fails on it.
- A nav entry under "More" whose page does not exist yet is dropped (with a note in the log), instead of failing.
"""

from __future__ import annotations

import logging
import posixpath
import re
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE = ["README.md", "LICENSE", "bench/RESULTS.md", "assets/screenshots/*.png"]  # repository files the site may link to
OPTIONAL = "More"  # the nav section whose missing pages are left out
VIRTUAL = "repo"
LINK = re.compile(r"(\]\()([^)\s]+)((?:\s+\"[^\"]*\")?\))")
log = logging.getLogger("mkdocs.hooks.playground")


def on_config(config):
    docs = Path(config["docs_dir"])
    nav = []
    for entry in config["nav"] or []:
        if isinstance(entry, dict) and OPTIONAL in entry:
            kept = [item for item in entry[OPTIONAL] if (docs / next(iter(item.values()))).is_file()]
            for item in entry[OPTIONAL]:
                if item not in kept:
                    log.info("nav: %s is not written yet; left out", next(iter(item.values())))
            if kept:
                nav.append({OPTIONAL: kept})
        else:
            nav.append(entry)
    config["nav"] = nav
    return config


def _outside_files() -> list[str]:
    found = []
    for pattern in OUTSIDE:
        found += sorted(p.relative_to(ROOT).as_posix() for p in ROOT.glob(pattern) if p.is_file())
    return found


def on_files(files, config):
    for rel in _outside_files():
        files.append(File.generated(config, f"{VIRTUAL}/{rel}", abs_src_path=str(ROOT / rel)))
    return files


def _virtual(real: Path, docs: Path) -> str | None:
    """Where the repository file `real` lands in the site, or None when the site does not carry it."""
    if real.is_relative_to(docs):
        return real.relative_to(docs).as_posix()
    rel = real.relative_to(ROOT).as_posix() if real.is_relative_to(ROOT) else None
    return f"{VIRTUAL}/{rel}" if rel in _outside_files() else None


def on_page_markdown(markdown, page, config, files):
    docs = Path(config["docs_dir"]).resolve()
    real_page = Path(page.file.abs_src_path).resolve()
    here = posixpath.dirname(page.file.src_uri)

    def rewrite(match):
        target = match.group(2)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith(("#", "/")):
            return match.group(0)
        path, _, anchor = target.partition("#")
        real = (real_page.parent / path).resolve()
        virtual = _virtual(real, docs) if real.exists() else None
        if virtual is None:
            return match.group(0)  # mkdocs reports it (strict: the build fails) unless it is a real site file
        new = posixpath.relpath(virtual, here or ".") + (f"#{anchor}" if anchor else "")
        return f"{match.group(1)}{new}{match.group(3)}"

    return LINK.sub(rewrite, markdown)
