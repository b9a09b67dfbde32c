"""``dicetables export-site DIR``: a static site that plays and advises a whole Yahtzee game in the browser alone
(docs/js.md, "A static advisor: dicetables export-site").

DIR gets ``index.html``, ``app.js`` and ``site.json`` (the page and its game, ``pipeline/site_files``), ``sw.js`` (a
service worker caching every file the page reads: offline after the first visit), ``js/src`` (the JavaScript
advisor, ``clients/js/src``), ``js/node_modules`` (the files of zarrita and its codecs the page imports, with their
licences) and ``artifacts/`` (the rule set's ``-values.zarr`` and ``-policy.zarr``, verified, copied unchanged, and a
``MANIFEST.json`` of their two entries as the source manifest lists them).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

from lookup.store import MANIFEST_NAME, ArtifactError, load_manifest

HERE = Path(__file__).resolve().parent
FILES = HERE / "site_files"
JS = HERE.parent / "clients" / "js"
# The packages the page imports from (the import map of index.html), and the folders of their files it loads.
NODE_FILES = {"zarrita": "dist/src", "@zarrita/storage": "dist/src", "numcodecs": "dist"}
RULES_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*")


def _empty_target(out: Path) -> Path:
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise ValueError(f"{out}: exists and is not a directory (export-site writes into an empty or new directory)")
    if out.is_dir() and any(out.iterdir()):
        raise ValueError(f"{out}: not empty (export-site writes into an empty or new directory)")
    if not out.exists() and not out.parent.is_dir():
        raise ValueError(f"{out}: its parent directory {out.parent} does not exist")
    return out


def _sources(artifacts: Path, rules: str) -> list[dict]:
    """The manifest entries of the rule set's value and policy tables, each verified against the manifest."""
    from pipeline.verify import verify_paths

    if not RULES_NAME.fullmatch(rules):
        raise ValueError(f"--rules {rules!r}: not a rule set name")
    if not artifacts.is_dir():
        raise ValueError(f"{artifacts}: the artifacts directory is not a directory")
    entries = {e["path"]: e for e in load_manifest(artifacts)["artifacts"]}
    wanted = [f"yahtzee-{rules}-values.zarr", f"yahtzee-{rules}-policy.zarr"]
    missing = [name for name in wanted if name not in entries]
    if missing:
        built = sorted(m.group(1) for p in entries if (m := re.fullmatch(r"yahtzee-(.+)-policy\.zarr", p))
                       and f"yahtzee-{m.group(1)}-values.zarr" in entries)
        raise ValueError(f"{artifacts}: {', '.join(missing)} not built (not in its {MANIFEST_NAME}); rule sets with "
                         f"value and policy tables there: {', '.join(built) or 'none'}")
    for path, problems in verify_paths([artifacts / name for name in wanted]):
        if problems:
            raise ArtifactError(f"{path}: " + "; ".join(problems))
    return [entries[name] for name in wanted]


def _copy_js(target: Path) -> None:
    modules = JS / "node_modules"
    if not (JS / "src").is_dir():
        raise ValueError(f"{JS / 'src'}: the JavaScript advisor is not there (export-site runs from a checkout)")
    shutil.copytree(JS / "src", target / "src", ignore=shutil.ignore_patterns("node.mjs"))
    for package, folder in NODE_FILES.items():
        source = modules / package
        if not (source / folder).is_dir():
            raise ValueError(f"{source / folder}: missing (run `npm ci` in {JS})")
        shutil.copytree(source / folder, target / "node_modules" / package / folder,
                        ignore=shutil.ignore_patterns("*.map", "*.d.ts"))
        for extra in ("LICENSE", "package.json"):
            if (source / extra).is_file():
                shutil.copy2(source / extra, target / "node_modules" / package / extra)


def _version(root: Path) -> str:
    """A digest of every file of the site (the service worker's cache name: a new export, a new cache)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def export_site(out: Path, artifacts: Path, rules: str = "hasbro") -> Path:
    """Write the static site of rule set ``rules`` from ``artifacts`` into ``out`` (empty or new); returns ``out``."""
    out = _empty_target(Path(out))
    artifacts = Path(artifacts)
    entries = _sources(artifacts, rules)
    out.mkdir(exist_ok=True)
    _copy_js(out / "js")
    target = out / "artifacts"
    target.mkdir()
    for entry in entries:
        shutil.copytree(artifacts / entry["path"], target / entry["path"], symlinks=False)
    manifest = {"artifacts": entries}  # as the source lists them: the same checksums
    (target / MANIFEST_NAME).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    for name in ("index.html", "app.js"):
        shutil.copy2(FILES / name, out / name)
    (out / "site.json").write_text(json.dumps({"rules": rules}) + "\n")
    version = _version(out)
    (out / "sw.js").write_text((FILES / "sw.js").read_text().replace("__VERSION__", version))
    return out
