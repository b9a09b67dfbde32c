"""`dicetables serve`: start the web app with uvicorn."""

from __future__ import annotations

import os
from pathlib import Path

import click

from pipeline.cli_options import artifacts_option, artifacts_root


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (loopback by default).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Worker processes (each maps the tables; see docs/web.md \"Load\" for 1 vs 2).")
@artifacts_option
def serve(host: str, port: int, workers: int, artifacts_dir: Path | None) -> None:
    """Serve the JSON API (OpenAPI at /docs) and the advisor page at http://HOST:PORT/."""
    import uvicorn

    root = artifacts_root(artifacts_dir).resolve()
    # Workers are separate processes: they find the artifacts through the environment.
    os.environ["DICETABLES_ARTIFACTS"] = str(root)
    click.echo(f"dicetables serving {root} on http://{host}:{port}/ (API docs at /docs)")
    # httptools and uvloop are dependencies: named here so a missing one fails loudly instead of uvicorn
    # falling back to its pure-Python parser (about half the requests per second, docs/web.md "Load").
    uvicorn.run("pipeline.web.app:create_app", factory=True, host=host, port=port, workers=workers,
                http="httptools", loop="uvloop", log_level="warning", access_log=False)
