"""Lighthouse scores of the table page: ``python -m benchmarks.lighthouse``.

Starts the game on a free loopback port, runs the pinned Lighthouse (``npm ci`` installs
it from package-lock.json) against Debian's Chromium with the mobile and the desktop
preset, and prints the performance and accessibility scores (targets: ≥ 0.95 and 1.0).
Exits 1 if a target is missed, so CI or a person can use it as a gate.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from devtools.live import ROOT, serve

CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking "
    "--disable-component-update --disable-sync --no-first-run"
)
TARGETS = {"performance": 0.95, "accessibility": 1.0}


def run_lighthouse(url: str, preset: str, chromium: str) -> dict[str, float]:
    binary = ROOT / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        sys.exit("Lighthouse is not installed: run `npm ci` in the repository first.")
    with tempfile.TemporaryDirectory() as out:
        report = Path(out) / "report.json"
        command = [
            str(binary), url, "--quiet", "--output=json", f"--output-path={report}",
            "--only-categories=performance,accessibility", f"--chrome-flags={CHROME_FLAGS}",
        ]  # fmt: skip
        if preset == "desktop":
            command.append("--preset=desktop")
        env = {**os.environ, "CHROME_PATH": chromium}
        subprocess.run(command, check=True, env=env, timeout=300)
        data = json.loads(report.read_text())
    failed = [a["id"] for a in data["audits"].values() if a.get("score") == 0 and a.get("scoreDisplayMode") == "binary"]
    if failed:
        print(f"  {preset}: failing audits: {', '.join(sorted(failed))}")
    return {name: data["categories"][name]["score"] for name in TARGETS}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chromium", default=os.environ.get("GIN_CHROMIUM", "/usr/bin/chromium"))
    parser.add_argument("--path", default="/", help="page to audit (default: the table)")
    args = parser.parse_args(argv)
    ok = True
    with tempfile.TemporaryDirectory() as data_dir, serve("app.main:app", Path(data_dir)) as base:
        for preset in ("mobile", "desktop"):
            scores = run_lighthouse(base + args.path, preset, args.chromium)
            line = ", ".join(f"{name} {score:.2f}" for name, score in scores.items())
            print(f"lighthouse {preset:7s} {args.path}: {line}")
            ok &= all(scores[name] >= target for name, target in TARGETS.items())
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
