"""The Dask example on a LocalCluster with 2 workers gives the records of `pencilbox batch` on
the same input (a corpus made by pencilbox's own generators)."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

import pencilbox

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
import pencilbox_dask  # noqa: E402


def target_dir():
    """Cargo's target directory, as `cargo metadata` reports it (CARGO_TARGET_DIR included)."""
    try:
        out = subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--no-deps"],
            cwd=ROOT, capture_output=True, text=True, check=True,
        ).stdout
        return pathlib.Path(json.loads(out)["target_directory"])
    except (OSError, subprocess.CalledProcessError, ValueError, KeyError):
        return ROOT / "target"


def binary():
    for c in [os.environ.get("PENCILBOX_BIN")] + [str(target_dir() / p / "pencilbox") for p in ("debug", "release")]:
        if c and os.path.isfile(c):
            return c
    pytest.skip("no pencilbox binary (set PENCILBOX_BIN or run cargo build -p pencilbox-cli)")


def corpus(path):
    """Generated puzzles of every family, a bare Sudoku line, a blank line and two bad lines."""
    lines = []
    for family, size in [("suguru", "6x6"), ("path", "6x6"), ("sudoku", "9x9"), ("ripple", "5x5")]:
        for seed in range(1, 6):
            g = pencilbox.generate(family, size=size, seed=seed)
            lines.append(json.dumps({"id": f"{family}-{seed}", "puzzle": family, "text": g["text"],
                                     "solution": g["answer"]}))
    lines.append(pencilbox.generate("sudoku", size="9x9", seed=99)["text"].strip())
    lines.append("")
    lines.append('{"id": "broken", "text": ')
    lines.append(json.dumps({"id": "kakuro", "puzzle": "kakuro", "text": "1"}))
    path.write_text("\n".join(lines) + "\n")
    return len(lines)


@pytest.fixture(scope="module")
def client():
    from dask.distributed import Client, LocalCluster

    try:
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    except Exception as e:  # a sandbox without process support: threads still test the mapping
        print(f"note: worker processes unavailable ({e}); using threads")
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0")
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.mark.parametrize("op", ["solve", "rate", "verify"])
def test_dask_on_a_local_cluster_equals_pencilbox_batch(tmp_path, client, op):
    src = tmp_path / "corpus.jsonl"
    n = corpus(src)
    expected = subprocess.run([binary(), "batch", "--op", op, str(src)],
                              capture_output=True, text=True, check=True).stdout
    out = tmp_path / "out.jsonl"
    summary = pencilbox_dask.run(client, [src], out, op=op, lines=7)
    assert summary["partitions"] == -(-n // 7)
    assert len(client.scheduler_info()["workers"]) == 2
    got = out.read_text()
    assert [json.loads(l) for l in got.splitlines()] == [json.loads(l) for l in expected.splitlines()]
    assert got == expected
    assert summary["records"] == n - 1
    # The malformed line and the unknown family (and, to verify, the line without a solution).
    assert summary["status"]["error"] == (3 if op == "verify" else 2)
    if op == "rate":
        assert summary["mean_rating"] > 0


def test_the_script_runs_on_its_own_local_cluster(tmp_path):
    src = tmp_path / "corpus.jsonl"
    n = corpus(src)
    out, summary = tmp_path / "out.jsonl", tmp_path / "summary.json"
    assert pencilbox_dask.main([str(src), "--out", str(out), "--summary", str(summary),
                                "--workers", "2", "--threads", "--lines", "10"]) == 0
    s = json.loads(summary.read_text())
    assert s["records"] == n - 1 and s["partitions"] == 3
    expected = subprocess.run([binary(), "batch", str(src)], capture_output=True, text=True, check=True).stdout
    assert out.read_text() == expected


def test_a_second_run_over_a_changed_file_computes_afresh(tmp_path, client):
    src = tmp_path / "corpus.jsonl"
    corpus(src)
    out = tmp_path / "out.jsonl"
    pencilbox_dask.run(client, [src], out, op="solve", lines=50)
    first = out.read_text()
    # The same path and number of lines (so the same partitions), other contents.
    src.write_text("\n".join(reversed(src.read_text().splitlines())) + "\n")
    pencilbox_dask.run(client, [src], out, op="solve", lines=50)
    expected = subprocess.run([binary(), "batch", str(src)], capture_output=True, text=True, check=True).stdout
    assert out.read_text() == expected != first
