"""Screenshots of every view of the page, for docs/web.md (not a test: pytest does not collect it).

    python -m tests.web.screenshots OUTDIR [--artifacts DIR]

starts the app on a free loopback port over DIR (default: $DICETABLES_ARTIFACTS or the project's artifacts/),
opens each view the nav lists in headless Chromium at 1280x900 and at 390x844 CSS pixels, presses the view's
main button where it has one, and saves the whole page as OUTDIR/<view>-<width>.png, printing each file name.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tests.web.live import running_server
from tests.web.pages import nav_views, open_page, press_main, show_view

SIZES = ((1280, 900), (390, 844))


def take(outdir: Path, artifacts: Path | None) -> list[Path]:
    """Every view at every size; the files written, in order. Fails when the page reports a console error."""
    from playwright.sync_api import sync_playwright

    from tests.web.conftest import CHROMIUM, FLAGS
    from webapp.app import create_app

    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    with running_server(create_app(artifacts)) as port, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            for width, height in SIZES:
                pg, errors = open_page(browser, f"http://127.0.0.1:{port}/", width, height)
                for view in nav_views(pg):
                    show_view(pg, view)
                    press_main(pg, view)
                    path = outdir / f"{view}-{width}.png"
                    pg.screenshot(path=str(path), full_page=True)
                    written.append(path)
                    print(path, flush=True)
                pg.close()
                if errors:
                    raise SystemExit(f"the page reported errors at width {width}: {errors}")
        finally:
            browser.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.web.screenshots", description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir", type=Path, help="directory for the PNG files (created if missing)")
    parser.add_argument("--artifacts", type=Path, default=None, help="artifacts directory the app serves")
    args = parser.parse_args(argv)
    take(args.outdir, args.artifacts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
