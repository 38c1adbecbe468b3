#!/usr/bin/env python3
"""CP-SAT baseline for four genres: Snake, Star Battle, Nurikabe and Masyu.

Solves each puzzle with Google OR-tools' CP-SAT solver and proves uniqueness the usual way: solve,
add a clause excluding the first answer, solve again. It is the "CP-SAT baseline" for same-run
speed comparisons with pencilbox, so by default it runs one worker (single-threaded, like
pencilbox) and times, per instance, the whole job a user waits for: from reading the file to
having the answer and the uniqueness verdict (model build + solve + uniqueness solve), measured
inside the script with time.perf_counter (interpreter start-up and the `ortools` import are not
counted).

Setup (once, from the workspace root):

    python3 -m venv target/cpsat-venv && target/cpsat-venv/bin/pip install ortools

Usage:

    target/cpsat-venv/bin/python scripts/cpsat-genres.py [--genre G] [--timeout S] [--workers N]
        [--rounds N] [--json] [--answers DIR] FILE_OR_DIR...

A directory stands for all its `*.txt` files, sorted. `--genre` forces the genre; otherwise it is
the first token of the file's header. `--rounds N` repeats each instance N times and keeps the
minimum time. `--json` prints one JSON object per instance per line (file, genre, status, seconds,
answer); otherwise a short text report. `--answers DIR` writes `<name>.ans` for each instance that
has an answer. Status is `unique`, `several`, `none` or `timeout` (`--timeout` seconds per
instance, 60 by default, over both solves). Exit code 0 unless an input could not be read.

Input formats (tokens separated by whitespace, `-` is an empty cell, the first line a header):

  snake R C        a line of C column counts, a line of R row counts (`-` = no count), then R rows
                   of `x` (a given end of the snake), `o` (a white circle: a snake cell that is
                   not an end) or `-`.
  starbattle R C K R rows of positive region labels; K stars per row, column and region.
  nurikabe R C     R rows of numbers, `?` (a numbered cell of unknown size) or `-`.
  masyu R C        R rows of `w` (white pearl), `b` (black pearl) or `-`.

Answers: R rows of tokens separated by single spaces; `x`/`-` for Snake (snake cell), Star Battle
(star) and Nurikabe (wall); for Masyu the two directions the loop leaves a cell by, one of `ns`,
`ew`, `ne`, `nw`, `se`, `sw` (n = up, s = down, e = right, w = left), or `-`.

Models (everything is in the model and solved in one CP-SAT call per solve; no lazy cuts):

  Star Battle  one Boolean per cell; linear sums per row, column and region; at most one star in
               every 2x2 block (which is exactly "no two stars touch, even diagonally").
  Snake        one Boolean per cell and one "end" Boolean per cell (exactly two ends; given `x`
               cells are ends, `o` cells snake cells that are not ends). Local rules as clauses and reified sums (a snake cell has exactly
               two snake neighbours, an end exactly one; no diagonal-only pair in a 2x2 block).
               Single path: AddCircuit over the cells plus one extra node, with a self-loop
               literal (= not snake) on every cell and arcs extra->end and end->extra; each
               orthogonal snake pair is a path step (the neighbour counts make that exact), so
               the circuit forbids separate loops.
  Masyu        one Boolean per grid edge; cell degree = 2 * used; AddCircuit over the cells with
               self-loop literal = not used (a single loop, no extra cycles); pearl rules as
               clauses on the edges.
  Nurikabe     one wall Boolean per cell plus, per numbered cell k, a Boolean "cell belongs to
               island k" for the cells island k can reach (BFS within size - 1 steps, avoiding
               other numbers and their neighbours); a white cell has exactly one island label,
               neighbouring white cells share it, island k has exactly its number of cells.
               Island connectivity: each white non-numbered cell has a white neighbour with a
               smaller distance value (an integer per cell, 0 on numbered cells, at least the BFS
               distance and at most size - 1). Wall connectivity: the same kind of rooted tree
               over wall cells, rooted at a cell that is wall in every answer (out of every
               island's reach, or next to two numbers), or, if there is none, at the first wall
               cell in row-major order. No 2x2 wall block; the wall count is fixed when no `?` is
               given. (Measured on 10x10 to 16x30 janko.at puzzles: a flow formulation of wall
               connectivity was 10-15% slower, rooting at the first wall cell about 2x slower,
               and lazy connectivity cuts with re-solving 50-100x slower.)
"""

import argparse
import json
import os
import sys
import time

try:
    from ortools.sat.python import cp_model
except ImportError:  # pragma: no cover
    sys.exit(
        "ortools is not installed: python3 -m venv target/cpsat-venv && "
        "target/cpsat-venv/bin/pip install ortools, then run this with target/cpsat-venv/bin/python"
    )

GENRES = ("snake", "starbattle", "nurikabe", "masyu")
DIRS = ((-1, 0), (1, 0), (0, 1), (0, -1))  # n, s, e, w


class InputError(Exception):
    pass


# ----------------------------------------------------------------------------------------------
# Parsing


def parse(text, genre=None):
    lines = [ln.split() for ln in text.splitlines()]
    lines = [ln for ln in lines if ln]
    if not lines:
        raise InputError("empty file")
    header = lines[0]
    if genre is None:
        genre = header[0].lower()
    if genre not in GENRES:
        raise InputError(f"unknown genre {header[0]!r}")
    if header[0].lower() in GENRES:
        nums = header[1:]
    else:
        nums = header
    try:
        nums = [int(t) for t in nums]
    except ValueError:
        raise InputError(f"bad header {' '.join(header)!r}")
    need = 3 if genre == "starbattle" else 2
    if len(nums) != need or min(nums) < 1:
        raise InputError(f"bad header {' '.join(header)!r} for {genre}")
    R, C = nums[0], nums[1]
    body = lines[1:]

    def rows(start, width, count):
        if len(body) < start + count:
            raise InputError(f"expected {count} rows, got {len(body) - start}")
        out = body[start:start + count]
        for i, r in enumerate(out):
            if len(r) != width:
                raise InputError(f"line {start + i + 2}: expected {width} tokens, got {len(r)}")
        if len(body) > start + count:
            raise InputError(f"unexpected text after line {start + count + 1}")
        return out

    def count_tok(t):
        if t == "-":
            return None
        try:
            v = int(t)
        except ValueError:
            raise InputError(f"bad count {t!r}")
        if v < 0:
            raise InputError(f"bad count {t!r}")
        return v

    if genre == "snake":
        if len(body) < 2 or len(body[0]) != C or len(body[1]) != R:
            raise InputError("snake: expected a line of C column counts then a line of R row counts")
        cols = [count_tok(t) for t in body[0]]
        rws = [count_tok(t) for t in body[1]]
        grid = rows(2, C, R)
        for r in grid:
            for t in r:
                if t not in ("x", "o", "-"):
                    raise InputError(f"snake: bad cell {t!r}")
        return genre, dict(R=R, C=C, cols=cols, rows=rws, ends=[[t == "x" for t in r] for r in grid],
                           middles=[[t == "o" for t in r] for r in grid])
    if genre == "starbattle":
        grid = rows(0, C, R)
        try:
            reg = [[int(t) for t in r] for r in grid]
        except ValueError:
            raise InputError("starbattle: region labels must be integers")
        if any(v < 1 for r in reg for v in r):
            raise InputError("starbattle: region labels must be positive")
        return genre, dict(R=R, C=C, K=nums[2], regions=reg)
    if genre == "nurikabe":
        grid = rows(0, C, R)
        clues = [[None] * C for _ in range(R)]
        for r in range(R):
            for c in range(C):
                t = grid[r][c]
                if t == "-":
                    continue
                if t == "?":
                    clues[r][c] = 0
                    continue
                try:
                    v = int(t)
                except ValueError:
                    raise InputError(f"nurikabe: bad cell {t!r}")
                if v < 1:
                    raise InputError(f"nurikabe: bad number {t!r}")
                clues[r][c] = v
        return genre, dict(R=R, C=C, clues=clues)
    grid = rows(0, C, R)
    for r in grid:
        for t in r:
            if t not in ("w", "b", "-"):
                raise InputError(f"masyu: bad cell {t!r}")
    return genre, dict(R=R, C=C, pearls=grid)


# ----------------------------------------------------------------------------------------------
# Models. Each builder returns (model, decision literals, answer function); the answer
# function takes the solver and returns the answer rows. The decision literals determine the
# answer, so excluding their values excludes exactly that answer.


def add_circuit_arcs(m, arcs, u, v, edge):
    """Directed arcs u->v and v->u, exactly one of them used iff the undirected edge is used."""
    a = m.NewBoolVar("")
    b = m.NewBoolVar("")
    m.Add(a + b == edge)
    arcs.append((u, v, a))
    arcs.append((v, u, b))


def model_starbattle(p):
    R, C, K, reg = p["R"], p["C"], p["K"], p["regions"]
    m = cp_model.CpModel()
    x = [[m.NewBoolVar(f"x{r}_{c}") for c in range(C)] for r in range(R)]
    for r in range(R):
        m.Add(sum(x[r]) == K)
    for c in range(C):
        m.Add(sum(x[r][c] for r in range(R)) == K)
    regions = {}
    for r in range(R):
        for c in range(C):
            regions.setdefault(reg[r][c], []).append(x[r][c])
    for cells in regions.values():
        m.Add(sum(cells) == K)
    for r in range(R - 1):
        for c in range(C - 1):
            m.AddAtMostOne(x[r][c], x[r][c + 1], x[r + 1][c], x[r + 1][c + 1])
    if R == 1 or C == 1:  # no 2x2 blocks: neighbours along the line still may not touch
        cells = [x[r][c] for r in range(R) for c in range(C)]
        for i in range(len(cells) - 1):
            m.AddAtMostOne(cells[i], cells[i + 1])
    lits = [v for row in x for v in row]

    def answer(s):
        return [["x" if s.Value(v) else "-" for v in row] for row in x]

    return m, lits, answer


def model_snake(p):
    R, C = p["R"], p["C"]
    m = cp_model.CpModel()
    s = [[m.NewBoolVar(f"s{r}_{c}") for c in range(C)] for r in range(R)]
    given = [(r, c) for r in range(R) for c in range(C) if p["ends"][r][c]]
    if len(given) > 2:
        m.AddBoolOr([])  # more than two ends given: no answer
    end = [[m.NewBoolVar(f"e{r}_{c}") for c in range(C)] for r in range(R)]
    for r in range(R):
        for c in range(C):
            m.AddImplication(end[r][c], s[r][c])
            if p["ends"][r][c]:
                m.Add(end[r][c] == 1)
            elif len(given) == 2:
                m.Add(end[r][c] == 0)
            if p["middles"][r][c]:  # a white circle: on the snake, not an end
                m.Add(s[r][c] == 1)
                m.Add(end[r][c] == 0)
    m.Add(sum(v for row in end for v in row) == 2)
    for c, n in enumerate(p["cols"]):
        if n is not None:
            m.Add(sum(s[r][c] for r in range(R)) == n)
    for r, n in enumerate(p["rows"]):
        if n is not None:
            m.Add(sum(s[r]) == n)

    def nbrs(r, c):
        return [(r + dr, c + dc) for dr, dc in DIRS if 0 <= r + dr < R and 0 <= c + dc < C]

    for r in range(R):
        for c in range(C):
            ns = [s[a][b] for a, b in nbrs(r, c)]
            m.Add(sum(ns) == 1).OnlyEnforceIf([s[r][c], end[r][c]])
            m.Add(sum(ns) == 2).OnlyEnforceIf([s[r][c], end[r][c].Not()])
    for r in range(R - 1):
        for c in range(C - 1):
            a, b, cc, d = s[r][c], s[r][c + 1], s[r + 1][c], s[r + 1][c + 1]
            m.AddBoolOr([a.Not(), d.Not(), b, cc])
            m.AddBoolOr([b.Not(), cc.Not(), a, d])
    # Single path: circuit over node 0 (the outside) and the cells 1..R*C.
    idx = lambda r, c: 1 + r * C + c  # noqa: E731
    arcs = []
    for r in range(R):
        for c in range(C):
            arcs.append((idx(r, c), idx(r, c), s[r][c].Not()))
            i = m.NewBoolVar("")
            o = m.NewBoolVar("")
            m.Add(i + o == end[r][c])
            arcs.append((0, idx(r, c), i))
            arcs.append((idx(r, c), 0, o))
            for a, b in ((r, c + 1), (r + 1, c)):
                if a < R and b < C:
                    e = m.NewBoolVar("")
                    m.AddBoolAnd([s[r][c], s[a][b]]).OnlyEnforceIf(e)
                    m.AddBoolOr([s[r][c].Not(), s[a][b].Not(), e])
                    add_circuit_arcs(m, arcs, idx(r, c), idx(a, b), e)
    m.AddCircuit(arcs)
    lits = [v for row in s for v in row]

    def answer(sol):
        return [["x" if sol.Value(v) else "-" for v in row] for row in s]

    return m, lits, answer


def model_masyu(p):
    R, C, P = p["R"], p["C"], p["pearls"]
    m = cp_model.CpModel()
    h = [[m.NewBoolVar(f"h{r}_{c}") for c in range(C - 1)] for r in range(R)]
    v = [[m.NewBoolVar(f"v{r}_{c}") for c in range(C)] for r in range(R - 1)]

    def edge(r, c, d):
        """The edge leaving cell (r, c) in direction d (0 n, 1 s, 2 e, 3 w), or None."""
        if d == 0:
            return v[r - 1][c] if r >= 1 else None
        if d == 1:
            return v[r][c] if r + 1 < R else None
        if d == 2:
            return h[r][c] if c + 1 < C else None
        return h[r][c - 1] if c >= 1 else None

    used = [[m.NewBoolVar(f"u{r}_{c}") for c in range(C)] for r in range(R)]
    for r in range(R):
        for c in range(C):
            es = [e for e in (edge(r, c, d) for d in range(4)) if e is not None]
            m.Add(sum(es) == 2 * used[r][c])
    m.Add(sum(u for row in used for u in row) >= 4)
    for r in range(R):
        for c in range(C):
            t = P[r][c]
            if t == "-":
                continue
            m.Add(used[r][c] == 1)
            for d, opp in ((0, 1), (2, 3)):  # the two axes: (n, s) and (e, w)
                e1, e2 = edge(r, c, d), edge(r, c, opp)
                dr, dc = DIRS[d]
                if t == "w":
                    # straight through: both edges of the axis or none
                    if e1 is None or e2 is None:
                        for e in (e1, e2):
                            if e is not None:
                                m.Add(e == 0)
                        continue
                    m.Add(e1 == e2)
                    # not straight in both neighbours along the axis
                    f1 = edge(r + dr, c + dc, d)
                    f2 = edge(r - dr, c - dc, opp)
                    if f1 is not None and f2 is not None:
                        m.AddBoolOr([e1.Not(), f1.Not(), f2.Not()])
                else:
                    # black: turns (not both edges of an axis), straight in both neighbours
                    if e1 is not None and e2 is not None:
                        m.AddBoolOr([e1.Not(), e2.Not()])
                    for dd, e in ((d, e1), (opp, e2)):
                        if e is None:
                            continue
                        ddr, ddc = DIRS[dd]
                        f = edge(r + ddr, c + ddc, dd)
                        if f is None:
                            m.Add(e == 0)
                        else:
                            m.AddImplication(e, f)
    arcs = []
    for r in range(R):
        for c in range(C):
            i = r * C + c
            arcs.append((i, i, used[r][c].Not()))
            if c + 1 < C:
                add_circuit_arcs(m, arcs, i, i + 1, h[r][c])
            if r + 1 < R:
                add_circuit_arcs(m, arcs, i, i + C, v[r][c])
    m.AddCircuit(arcs)
    lits = [e for row in h for e in row] + [e for row in v for e in row]

    def answer(s):
        out = []
        for r in range(R):
            row = []
            for c in range(C):
                ds = "".join("nsew"[d] for d in range(4)
                             if edge(r, c, d) is not None and s.Value(edge(r, c, d)))
                row.append(ds if ds else "-")
            out.append(row)
        return out

    return m, lits, answer


def model_nurikabe(p):
    R, C, clue = p["R"], p["C"], p["clues"]
    N = R * C
    m = cp_model.CpModel()
    w = [[m.NewBoolVar(f"w{r}_{c}") for c in range(C)] for r in range(R)]
    cells = [(r, c) for r in range(R) for c in range(C)]
    clues = [(r, c, clue[r][c]) for r, c in cells if clue[r][c] is not None]
    total_known = all(n > 0 for _, _, n in clues)

    def nbrs(r, c):
        return [(r + dr, c + dc) for dr, dc in DIRS if 0 <= r + dr < R and 0 <= c + dc < C]

    # island labels: lab[(r, c)][k] for the cells island k can reach: within size - 1 steps of its
    # number, through cells that are neither numbered nor next to another number
    lab = {rc: {} for rc in cells}
    near = {}  # (r, c) -> set of clues numbered on it or next to it
    for k, (kr, kc, n) in enumerate(clues):
        for rc in [(kr, kc)] + nbrs(kr, kc):
            near.setdefault(rc, set()).add(k)
    reach = []  # reach[k]: cell -> BFS distance from number k
    for k, (kr, kc, n) in enumerate(clues):
        limit = n - 1 if n > 0 else N
        d = {(kr, kc): 0}
        frontier = [(kr, kc)]
        while frontier and d[frontier[0]] < limit:
            nxt = []
            for x in frontier:
                for y in nbrs(*x):
                    if y not in d and near.get(y, {k}) <= {k}:
                        d[y] = d[x] + 1
                        nxt.append(y)
            frontier = nxt
        reach.append(d)
        for r, c in d:
            lab[(r, c)][k] = m.NewBoolVar(f"l{r}_{c}_{k}")
    maxd = max([n - 1 if n > 0 else N - 1 for _, _, n in clues] + [0])
    dist = {}
    for r, c in cells:
        m.Add(w[r][c] + sum(lab[(r, c)].values()) == 1)
        if clue[r][c] is not None:
            dist[(r, c)] = 0
        elif lab[(r, c)]:
            dist[(r, c)] = m.NewIntVar(1, max(1, maxd), f"d{r}_{c}")
    for k, (kr, kc, n) in enumerate(clues):
        m.Add(lab[(kr, kc)][k] == 1)
        members = [lab[rc][k] for rc in cells if k in lab[rc]]
        if n > 0:
            m.Add(sum(members) == n)
        for (r, c), l in ((rc, lab[rc][k]) for rc in cells if k in lab[rc]):
            if clue[r][c] is None and n > 0:
                m.Add(dist[(r, c)] <= n - 1).OnlyEnforceIf(l)
                m.Add(dist[(r, c)] >= reach[k][(r, c)]).OnlyEnforceIf(l)
    # neighbouring white cells share their label
    for r, c in cells:
        for a, b in nbrs(r, c):
            for k, l in lab[(r, c)].items():
                other = lab[(a, b)].get(k)
                if other is None:
                    m.AddImplication(l, w[a][b])
                else:
                    m.AddBoolOr([l.Not(), w[a][b], other])
    # island connectivity: a white non-numbered cell has a white neighbour nearer its number
    for r, c in cells:
        if clue[r][c] is not None or not lab[(r, c)]:
            continue
        parents = []
        for a, b in nbrs(r, c):
            if not lab[(a, b)]:
                continue
            pl = m.NewBoolVar("")
            m.AddImplication(pl, w[a][b].Not())
            if clue[a][b] is None:
                m.Add(dist[(a, b)] < dist[(r, c)]).OnlyEnforceIf(pl)
            parents.append(pl)
        m.AddBoolOr(parents + [w[r][c]])
    # no 2x2 wall
    for r in range(R - 1):
        for c in range(C - 1):
            m.AddBoolOr([w[r][c].Not(), w[r][c + 1].Not(), w[r + 1][c].Not(), w[r + 1][c + 1].Not()])
    walls = [w[r][c] for r, c in cells]
    if total_known:
        m.Add(sum(walls) == N - sum(n for _, _, n in clues))
    for r, c, _ in clues:
        m.Add(w[r][c] == 0)
    free = [rc for rc in cells if clue[rc[0]][rc[1]] is None]
    # Wall connectivity: a rooted tree. The root is a cell that must be wall whatever the answer
    # (out of reach of every island, or next to two numbered cells), the one nearest the centre;
    # failing that, the first wall cell in row-major order. Every other wall cell has a wall
    # neighbour with a smaller distance value.
    forced = [(r, c) for r, c in free if not lab[(r, c)]
              or sum(1 for a, b in nbrs(r, c) if clue[a][b] is not None) >= 2]
    dw = {rc: m.NewIntVar(0, max(0, len(free) - 1), f"dw{rc[0]}_{rc[1]}") for rc in free}
    roots = {}
    root_cell = None
    if forced:
        root_cell = min(forced, key=lambda rc: (abs(2 * rc[0] - R + 1) + abs(2 * rc[1] - C + 1), rc))
        m.Add(w[root_cell[0]][root_cell[1]] == 1)
        for rc in free:
            roots[rc] = None
        roots[root_cell] = True
    else:
        before = None  # literal: some earlier cell is wall
        for r, c in free:
            root = m.NewBoolVar("")
            if before is None:
                m.Add(root == w[r][c])
            else:
                m.AddBoolAnd([w[r][c], before.Not()]).OnlyEnforceIf(root)
                m.AddBoolOr([w[r][c].Not(), before, root])
            roots[(r, c)] = root
            if before is None:
                before = w[r][c]
            else:
                nb = m.NewBoolVar("")
                m.AddMaxEquality(nb, [before, w[r][c]])
                before = nb
    for r, c in free:
        rt = roots[(r, c)]
        if rt is True:
            m.Add(dw[(r, c)] == 0)
            continue
        if rt is not None:
            m.Add(dw[(r, c)] == 0).OnlyEnforceIf(rt)
        parents = []
        for a, b in nbrs(r, c):
            if (a, b) not in dw:
                continue
            pl = m.NewBoolVar("")
            m.AddImplication(pl, w[a][b])
            m.Add(dw[(a, b)] < dw[(r, c)]).OnlyEnforceIf(pl)
            parents.append(pl)
        m.AddBoolOr(parents + [w[r][c].Not()] + ([rt] if rt is not None else []))

    def answer(s):
        return [["x" if s.Value(w[r][c]) else "-" for c in range(C)] for r in range(R)]

    return m, walls, answer


BUILDERS = dict(snake=model_snake, starbattle=model_starbattle, nurikabe=model_nurikabe, masyu=model_masyu)


# ----------------------------------------------------------------------------------------------
# Solving


def solve(model, workers, deadline):
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.max_time_in_seconds = max(0.001, deadline - time.perf_counter())
    st = solver.Solve(model)
    return solver, st


def run_one(path, genre, timeout, workers):
    t0 = time.perf_counter()
    deadline = t0 + timeout
    with open(path) as f:
        text = f.read()
    genre, puzzle = parse(text, genre)
    model, lits, answer = BUILDERS[genre](puzzle)
    solver, st = solve(model, workers, deadline)
    if st == cp_model.INFEASIBLE or st == cp_model.MODEL_INVALID:
        return genre, "none", time.perf_counter() - t0, None
    if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return genre, "timeout", time.perf_counter() - t0, None
    first = answer(solver)
    vals = [solver.BooleanValue(v) for v in lits]
    model.AddBoolOr([v.Not() if b else v for v, b in zip(lits, vals)])
    solver2, st2 = solve(model, workers, deadline)
    if st2 in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        status = "several"
    elif st2 == cp_model.INFEASIBLE:
        status = "unique"
    else:
        status = "timeout"
    return genre, status, time.perf_counter() - t0, first


def expand(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            out.extend(sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".txt")))
        else:
            out.append(p)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    ap.add_argument("--genre", choices=GENRES)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per instance (default 60)")
    ap.add_argument("--workers", type=int, default=1, help="CP-SAT workers (default 1)")
    ap.add_argument("--rounds", type=int, default=1, help="repeat, keep the minimum time")
    ap.add_argument("--json", action="store_true", help="one JSON object per instance per line")
    ap.add_argument("--answers", metavar="DIR", help="write <name>.ans files here")
    args = ap.parse_args()
    if args.answers:
        os.makedirs(args.answers, exist_ok=True)
    failed = False
    for path in expand(args.paths):
        best = None
        try:
            for _ in range(max(1, args.rounds)):
                genre, status, secs, ans = run_one(path, args.genre, args.timeout, args.workers)
                if best is None or secs < best[2]:
                    best = (genre, status, secs, ans if best is None else best[3])
        except (OSError, InputError) as e:
            print(f"{path}: {e}", file=sys.stderr)
            failed = True
            continue
        genre, status, secs, ans = best
        text = "\n".join(" ".join(row) for row in ans) + "\n" if ans else None
        if args.answers and ans:
            name = os.path.splitext(os.path.basename(path))[0] + ".ans"
            with open(os.path.join(args.answers, name), "w") as f:
                f.write(text)
        if args.json:
            print(json.dumps(dict(file=path, genre=genre, status=status, seconds=round(secs, 6),
                                  answer=[" ".join(row) for row in ans] if ans else None)), flush=True)
        else:
            print(f"{path}: {genre} {status} {secs:.4f}s")
            if text:
                print(text, end="")
            sys.stdout.flush()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
