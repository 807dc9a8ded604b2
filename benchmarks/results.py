"""Where a benchmark's report goes: its ``--out`` file (under ``benchmarks/results/``)."""

from __future__ import annotations

from pathlib import Path


def write_report(out: Path, report: str) -> None:
    """Write ``report`` to ``out``, making its folder if need be."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(report, encoding="utf-8")


def write_rows(out: Path, rows: list[str]) -> None:
    """Write a report of ``rows`` (one a line) to ``out``, and say where."""
    write_report(out, "\n".join(rows) + "\n")
    print(f"written to {out}")
