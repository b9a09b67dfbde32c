"""What every report stage shares (pipeline/reports.py): the directory is published at once, figures are
byte-reproducible, JSON is sorted."""

import json

import pytest

from pipeline.reports import publish_report, pyplot, save_figure, write_json


def test_publish_replaces_the_whole_directory_or_nothing(tmp_path):
    out = tmp_path / "reports" / "game"

    def first(tmp):
        (tmp / "old.txt").write_text("old")
        return ["old.txt"]

    assert publish_report(out, first) == ["old.txt"]

    def failing(tmp):
        (tmp / "half.txt").write_text("half")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError, match="disk full"):
        publish_report(out, failing)
    assert [p.name for p in out.iterdir()] == ["old.txt"]  # the previous report, untouched
    publish_report(out, lambda tmp: write_json(tmp / "new.json", {"b": 1, "a": [1.5]}))
    assert [p.name for p in out.iterdir()] == ["new.json"]  # nothing stale survives a republish
    assert (out / "new.json").read_text() == json.dumps({"a": [1.5], "b": 1}, indent=2) + "\n"
    assert [p.name for p in out.parent.iterdir()] == ["game"]  # no temporary left behind


def test_figures_are_byte_reproducible_and_unstamped(tmp_path):
    plt = pyplot()
    paths = []
    for name in ("a.png", "b.png"):
        fig, ax = plt.subplots(figsize=(3, 2))
        ax.plot([0, 1, 2], [1, 0, 1])
        paths.append(save_figure(fig, tmp_path / name))
    data = [p.read_bytes() for p in paths]
    assert data[0] == data[1] and data[0].startswith(b"\x89PNG")
    assert b"matplotlib" not in data[0]  # no software stamp: a matplotlib upgrade alone changes no report
    assert plt.get_fignums() == []  # closed
