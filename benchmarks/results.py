"""Where a benchmark's report goes: its ``--out`` file (under ``benchmarks/results/``)."""

from __future__ import annotations

from pathlib import Path


def write_report(out: Path, report: str) -> None:
    """Write ``report`` to ``out``, making its folder if need be."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(report, encoding="utf-8")
