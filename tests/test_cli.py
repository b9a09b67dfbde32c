"""The `dicetables` command: build, verify, info, summary, and its error handling."""

from pathlib import Path

from click.testing import CliRunner

from pipeline.cli import main


def _run(*args: str):
    return CliRunner().invoke(main, list(args))


def _build(artifacts: Path, tmp_path: Path):
    params = tmp_path / "params.yaml"
    params.write_text("dicerace:\n  max_dice: 10\n")
    return _run("--quiet", "build", "--params", str(params), "--artifacts", str(artifacts))


def test_build_verify_info_summary(artifacts, tmp_path):
    result = _build(artifacts, tmp_path)
    assert result.exit_code == 0, result.output
    assert (artifacts / "MANIFEST.json").is_file()
    verify = _run("verify", "--artifacts", str(artifacts))
    assert verify.exit_code == 0, verify.output
    assert verify.output.count("OK") == 2
    info = _run("info", str(artifacts / "dicerace-probabilities.zarr"))
    assert info.exit_code == 0, info.output
    for word in ("dicerace.probabilities v1", "max_dice", "fingerprint", "(11, 61)", "float64", "zstd",
                 "crc32c"):
        assert word in info.output
    summary = _run("summary", "--artifacts", str(artifacts))
    assert summary.exit_code == 0 and "91/216" in summary.output


def test_verify_names_the_corrupted_array_and_exits_1(artifacts, tmp_path):
    _build(artifacts, tmp_path)
    (shard,) = [p for p in (artifacts / "dicerace-probabilities.zarr" / "Q" / "c").rglob("*") if p.is_file()]
    raw = bytearray(shard.read_bytes())
    raw[5] ^= 0xFF
    shard.write_bytes(bytes(raw))
    result = _run("verify", "--artifacts", str(artifacts))
    assert result.exit_code == 1
    assert "FAIL" in result.output and "'Q'" in result.output
    assert "OK" in result.output  # the HDF5 mirror is still fine
    single = _run("verify", str(artifacts / "dicerace-probabilities.h5"))
    assert single.exit_code == 0


def test_errors_are_messages_not_tracebacks(artifacts, tmp_path):
    result = _run("info", str(tmp_path / "nothing.zarr"))
    assert result.exit_code == 1 and "no such artifact" in result.output
    result = _run("verify", "--artifacts", str(artifacts))
    assert result.exit_code == 1 and "no manifest" in result.output
    result = _run("build", "unknown-family", "--artifacts", str(artifacts))
    assert result.exit_code == 1 and "unknown table family" in result.output
