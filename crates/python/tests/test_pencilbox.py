"""Tests of the pencilbox Python package: every function, bad input, the GIL released while
solving, and batch records equal to `pencilbox batch`'s."""

import json
import os
import pathlib
import subprocess
import threading
import time

import pytest

import pencilbox

ROOT = pathlib.Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
SUDOKU = ".....21...1......4.9..3.....3....7...6...384.....7...2....1...572.86..1...89...3."


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
    """The `pencilbox` binary to compare with (PENCILBOX_BIN, else a cargo build's)."""
    candidates = [os.environ.get("PENCILBOX_BIN")] + [
        str(target_dir() / p / "pencilbox") for p in ("debug", "release")
    ]
    for c in candidates:
        if c and os.path.isfile(c):
            return c
    pytest.skip("no pencilbox binary (set PENCILBOX_BIN or run cargo build -p pencilbox-cli)")


def test_families_lists_every_family():
    assert pencilbox.families() == [
        "masyu", "nurikabe", "path", "ripple", "snake", "starbattle", "sudoku", "suguru",
    ]


def test_solve_returns_the_json_of_the_command_line():
    text = (EXAMPLES / "suguru" / "example-6x6.in").read_text()
    r = pencilbox.solve(text)
    assert r["puzzle"] == "suguru" and r["status"] == "solved"
    assert r["stats"]["elapsed_us"] >= 0
    cli = json.loads(
        subprocess.run(
            [binary(), "solve", "--format", "json", str(EXAMPLES / "suguru" / "example-6x6.in")],
            capture_output=True, text=True, check=True,
        ).stdout
    )
    for d in (r, cli):
        d["stats"].pop("elapsed_us")
    assert r == cli


def test_solve_with_family_algorithm_and_settings():
    text = (EXAMPLES / "path" / "example-6x6.txt").read_text()
    r = pencilbox.solve(text, puzzle="path", algorithm="paper")
    assert r["status"] == "solved" and r["algorithm"] == "paper"
    answer = (EXAMPLES / "path" / "example-6x6.sol").read_text()
    assert pencilbox.verify(text, answer)["valid"] is True
    six = (EXAMPLES / "sudoku" / "6x6.txt").read_text()
    assert pencilbox.solve(six, settings=[("block", "2x3")])["status"] == "solved"


def test_a_timeout_is_a_status_not_an_exception():
    assert pencilbox.solve(SUDOKU, timeout=0)["status"] == "timeout"


def test_count_and_uniqueness():
    r = pencilbox.count(SUDOKU, limit=2)
    assert (r["count"], r["complete"], r["status"]) == (1, True, "counted")
    several = (EXAMPLES / "several" / "suguru-6x6-several.in").read_text()
    r = pencilbox.count(several)
    assert r["count"] == 8 and r["complete"] is True
    assert len(r["witness"]) == 2 and r["differences"]
    r = pencilbox.count(several, limit=2)
    assert r["count"] == 2 and r["complete"] is False


def test_verify_names_every_violation():
    text = (EXAMPLES / "suguru" / "example-6x6.in").read_text()
    answer = (EXAMPLES / "suguru" / "example-6x6.ans").read_text()
    assert pencilbox.verify(text, answer) == {
        "puzzle": "suguru", "valid": True, "violations": [], "status": "valid"
    }
    lines = answer.splitlines()
    lines[0] = " ".join("1" for _ in lines[0].split())
    bad = pencilbox.verify(text, "\n".join(lines) + "\n")
    assert bad["valid"] is False and bad["status"] == "invalid" and bad["violations"]


def test_explain_and_rating():
    r = pencilbox.explain(SUDOKU)
    assert r["status"] == "solved" and r["steps"] and r["rating"]["score"] > 0
    assert r["steps"][0]["rule"]
    rated = pencilbox.explain(SUDOKU, rating_only=True)
    assert rated == {"puzzle": "sudoku", "status": "solved", "rating": r["rating"]}


def test_explain_from_the_players_entries_names_a_wrong_one():
    path = (EXAMPLES / "path" / "example-6x6.txt").read_text()
    drawing = (EXAMPLES / "path" / "example-6x6.drawing").read_text()
    r = pencilbox.explain(path, entries=drawing)
    assert r["status"] == "solved" and "wrong" not in r
    wrong = "0 0 0 0 0 0\n" * 5 + "0 0 0 0 0 u\n"
    r = pencilbox.explain(path, entries=wrong)
    assert r["status"] == "no solution"
    assert r["wrong"] == [{"cell": "r5c6-r6c6", "value": "line"}]
    with pytest.raises(pencilbox.PuzzleError) as e:
        pencilbox.explain(path, entries="0 0 0 0 0 r\n" * 6)
    assert "off the grid" in e.value.message


def test_hint_at_three_levels_and_from_a_position():
    suguru = (EXAMPLES / "suguru" / "example-6x6.in").read_text()
    nudge = pencilbox.hint(suguru, level="nudge")
    assert nudge["cells"] and "rule" not in nudge and nudge["puzzle"] == "suguru"
    answer = pencilbox.hint(suguru, level="answer")
    # The answer is one placement, inside the nudge's area (an area, not the target).
    assert len(answer["placed"]) == 1 and answer["placed"][0]["cell"] in nudge["cells"]
    assert len(nudge["cells"]) > 1 and nudge["text"].startswith("look at ")
    # The same as the command line's JSON.
    out = subprocess.run(
        [binary(), "hint", "--level", "answer", "-f", "json", str(EXAMPLES / "suguru" / "example-6x6.in")],
        capture_output=True, text=True, check=True,
    )
    assert json.loads(out.stdout) == answer
    path = (EXAMPLES / "path" / "example-6x6.txt").read_text()
    wrong = pencilbox.hint(path, entries="0 0 0 0 0 0\n" * 5 + "0 0 0 0 0 u\n")
    assert wrong["text"] is None and wrong["wrong"] == [{"cell": "r5c6-r6c6", "value": "line"}]
    with pytest.raises(pencilbox.PuzzleError):
        pencilbox.hint(suguru, level="loud")


def test_generate_makes_a_unique_puzzle_that_solves_to_its_answer():
    families = [("suguru", "6x6"), ("path", (6, 6)), ("sudoku", "4x4"), ("ripple", "5x5")]
    families += [("masyu", "6x6"), ("nurikabe", "6x6"), ("snake", "6x6"), ("starbattle", "6x6")]
    for family, size in families:
        g = pencilbox.generate(family, size=size, seed=11)
        assert g["unique"] is True and g["seed"] >= 11
        assert pencilbox.verify(g["text"], g["answer"], puzzle=family)["valid"] is True
        assert pencilbox.count(g["text"], puzzle=family, limit=2)["count"] == 1
        assert pencilbox.generate(family, size=size, seed=11) == g


def empty_path(n):
    clues = " ".join(["-1"] * n)
    return f"{n} {n}\n1 1\n{n} {n}\n\n{clues}\n{clues}\n"


def test_a_puzzle_above_the_memory_budget_raises_memory_error():
    # Issue 29: the interpreter aborted on an empty 2000x2000 Path under a 4 GB address-space
    # limit. The estimate is checked against the budget before anything is allocated.
    big = empty_path(2000)
    for call in (
        lambda: pencilbox.solve(big, puzzle="path", timeout=1, memory="1G"),
        lambda: pencilbox.count(big, puzzle="path", limit=2, memory=1 << 30),
        lambda: pencilbox.explain(big, puzzle="path", memory="1G"),
        lambda: pencilbox.hint(big, puzzle="path", memory="1G"),
    ):
        with pytest.raises(MemoryError) as e:
            call()
        assert "budget of 1.0 GiB" in str(e.value), str(e.value)
    records = list(pencilbox.batch([json.dumps({"puzzle": "path", "text": big})], jobs=1, memory="1G"))
    assert records[0]["status"] == "error" and "budget" in records[0]["message"], records
    # Within the budget the same call runs.
    small = empty_path(30)
    assert pencilbox.solve(small, puzzle="path", memory="1G")["status"] == "solved"
    with pytest.raises(pencilbox.PuzzleError):
        pencilbox.solve(small, puzzle="path", memory="lots")


def test_the_memory_budget_holds_in_a_process_under_an_address_space_limit():
    # The reproducer itself: `ulimit -v 4000000`, the default budget (half of it).
    code = (
        "import resource, pencilbox\n"
        "resource.setrlimit(resource.RLIMIT_AS, (4_000_000 * 1024, 4_000_000 * 1024))\n"
        f"text = {empty_path(2000)!r}\n"
        "try:\n"
        "    pencilbox.solve(text, puzzle='path', timeout=1)\n"
        "except MemoryError as e:\n"
        "    print('MemoryError', e)\n"
    )
    import sys

    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.startswith("MemoryError"), (r.returncode, r.stdout, r.stderr)


def test_a_generator_stopped_by_its_timeout_raises_timeout_error():
    with pytest.raises(TimeoutError):
        pencilbox.generate("suguru", size="30x30", difficulty="hard", seed=3, timeout=0.3)


def test_bad_input_raises_with_line_and_column():
    with pytest.raises(pencilbox.PuzzleError) as e:
        pencilbox.solve("3 3\n1 0 0\n0 0 0\n0 0 0\n1 1 2\n1 2 2\n3 3 x\n", puzzle="suguru")
    assert isinstance(e.value, ValueError)
    assert (e.value.line, e.value.col) == (7, 5), str(e.value)
    with pytest.raises(pencilbox.PuzzleError) as e:
        pencilbox.solve("2 2\n0 0\n0 0\n1 1\n")
    assert e.value.line == 5 and "suguru" in e.value.message
    with pytest.raises(pencilbox.PuzzleError) as e:
        pencilbox.solve(SUDOKU, puzzle="kakuro")
    assert e.value.line is None and e.value.col is None and "kakuro" in str(e.value)
    with pytest.raises(pencilbox.PuzzleError):
        pencilbox.solve(SUDOKU, algorithm="nonsense")
    with pytest.raises(pencilbox.PuzzleError):
        pencilbox.generate("kakuro")
    with pytest.raises(pencilbox.PuzzleError) as e:
        pencilbox.verify(SUDOKU, "12")
    assert e.value.line == 1


def test_batch_yields_records_in_order_with_errors_inline():
    items = [
        SUDOKU,
        {"id": "d", "text": SUDOKU},
        json.dumps({"id": "s", "puzzle": "sudoku", "text": SUDOKU}),
        "",
        '{"id": "broken", ',
        {"id": "k", "puzzle": "kakuro", "text": "1"},
        (40, {"id": "p", "text": (EXAMPLES / "path" / "example-6x6.txt").read_text()}),
        SUDOKU,
    ]
    recs = list(pencilbox.batch(iter(items), jobs=2))
    assert [r["id"] for r in recs] == [1, "d", "s", 5, "k", "p", 41]
    assert [r["status"] for r in recs] == ["solved", "solved", "solved", "error", "error", "solved", "solved"]
    assert recs[3]["message"].startswith("line 5: malformed JSON")
    assert recs[4]["message"].startswith("line 6: unknown puzzle `kakuro`")
    assert "elapsed_us" not in recs[0]["stats"]
    timed = list(pencilbox.batch([SUDOKU], timeout=0))
    assert timed[0]["status"] == "error" and "timeout" in timed[0]["message"]
    with pytest.raises(TypeError):
        list(pencilbox.batch([3]))
    with pytest.raises(pencilbox.PuzzleError):
        pencilbox.batch([], op="frobnicate")


def test_batch_equals_the_command_line_batch(tmp_path):
    lines = [SUDOKU] + [
        json.dumps({"id": f"gen-{f}-{s}", "puzzle": f, "text": pencilbox.generate(f, size=size, seed=s)["text"]})
        for f, size in [("suguru", "5x5"), ("path", "5x5"), ("ripple", "4x4")]
        for s in (1, 2)
    ] + ['{"id": 7, "text": "nonsense"}']
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(lines) + "\n")
    for op in ("solve", "rate", "count"):
        cli = subprocess.run(
            [binary(), "batch", "--op", op, str(src)], capture_output=True, text=True, check=True
        ).stdout
        ours = list(pencilbox.batch(src.read_text().splitlines(), op=op))
        assert ours == [json.loads(l) for l in cli.splitlines()]
        # The same bytes, written as serde_json writes them.
        assert "".join(json.dumps(r, separators=(",", ":"), ensure_ascii=False) + "\n" for r in ours) == cli


def test_the_gil_is_released_while_solving():
    empty = "." * 81
    done = threading.Event()
    result = {}

    def work():
        t0 = time.perf_counter()
        result["r"] = pencilbox.count(empty, puzzle="sudoku", limit=20000)
        result["seconds"] = time.perf_counter() - t0
        done.set()

    ticks = 0
    worker = threading.Thread(target=work)
    worker.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    assert result["r"]["count"] == 20000
    # Holding the GIL for the whole count would leave this thread a tick or two.
    assert ticks >= min(20, result["seconds"] * 1000 / 4), (ticks, result["seconds"])


def test_ctrl_c_interrupts_a_long_call_and_the_module_still_works():
    # A fresh interpreter: SIGINT goes to its main thread, which is waiting in pencilbox.
    script = f"""
import os, signal, threading, time, pencilbox
def ctrl_c():
    time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGINT)
calls = {{
    "count": lambda: pencilbox.count("." * 81, puzzle="sudoku"),
    "batch": lambda: list(pencilbox.batch([{SUDOKU!r}, "." * 81], op="count", puzzle="sudoku")),
}}
for name, call in calls.items():
    threading.Thread(target=ctrl_c).start()
    t0 = time.perf_counter()
    try:
        call()
        print(name, "finished")
    except KeyboardInterrupt:
        print(name, "interrupted", "quickly" if time.perf_counter() - t0 < 5 else "slowly")
print(pencilbox.solve({SUDOKU!r})["status"])
# An interrupted batch loses nothing: the next next() runs the interrupted chunk again (here the
# endless count then ends at its 2 s timeout, an error record).
it = pencilbox.batch([{SUDOKU!r}, "." * 81], op="count", puzzle="sudoku", timeout=2.0)
threading.Thread(target=ctrl_c).start()
try:
    next(it)
    print("finished")
except KeyboardInterrupt:
    print("interrupted")
print([(r["id"], r["status"]) for r in it])
"""
    import sys

    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert out.stdout.split("\n")[:5] == [
        "count interrupted quickly",
        "batch interrupted quickly",
        "solved",
        "interrupted",
        "[(1, 'counted'), (2, 'error')]",
    ], (out.stdout, out.stderr)


def test_a_program_that_set_sig_dfl_is_still_ended_by_ctrl_c():
    import signal
    import sys

    script = """
import os, signal, threading, time, pencilbox
signal.signal(signal.SIGINT, signal.SIG_DFL)
pencilbox.solve(".....21...1......4.9..3.....3....7...6...384.....7...2....1...572.86..1...89...3.")
threading.Thread(target=lambda: (time.sleep(0.5), os.kill(os.getpid(), signal.SIGINT))).start()
pencilbox.count("." * 81, puzzle="sudoku")
print("survived")
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == -signal.SIGINT and "survived" not in out.stdout, (out.returncode, out.stdout, out.stderr)
