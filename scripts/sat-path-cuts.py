#!/usr/bin/env python3
"""A Path puzzle's exported CNF on an outside SAT solver, statically or with lazy cycle cuts:
the cross-check behind BENCHMARKS.md's "planted 40×40" rows (issue 30), to see whether a
stronger SAT solver than `--algorithm sat`'s BatSat finds what the engine does not.

usage: pencilbox export -f dimacs -o P.cnf PUZZLE
       scripts/sat-path-cuts.py [--solver NAME] [--limit SECS] [--static] P.cnf

NAME is a PySAT solver (`pip install python-sat`; default cadical195, also glucose4,
maplechrono, …). Without `--static` the export's "no cycles" part (the `arc …` and `rank …`
variables and every clause over them) is dropped, and each model's detached cycles are cut
(a clause that forbids exactly that cycle's links; with `--gsec`, for each of its cells, a
clause that the cell visited needs a used link out of the cycle's cells) until a model has none — the subtour
elimination `--algorithm sat` runs on BatSat. With `--static` the whole CNF is solved once.
Prints SOLVED / UNSAT / TIMEOUT with the rounds, cuts and seconds (CaDiCaL cannot be
interrupted within a call, so its time can pass the limit by one call). Not used by the tests.
"""
import argparse, re, sys, threading, time

try:
    from pysat.solvers import Solver
except ImportError:
    sys.exit("sat-path-cuts: needs PySAT (pip install python-sat)")


def read(path):
    names, clauses = {}, []
    for line in open(path):
        if line.startswith("c "):
            p = line.split()
            if len(p) >= 3 and p[1].isdigit():
                names[int(p[1])] = " ".join(p[2:])
        elif line.strip() and not line.startswith("p"):
            clauses.append([int(x) for x in line.split()[:-1]])
    return names, clauses


def cycles(model, links):
    """The components of the used links in which every cell has two used links, as (cells,
    links)."""
    adj = {}
    for v, (a, b) in links.items():
        if model[v - 1] > 0:
            adj.setdefault(a, []).append((b, v))
            adj.setdefault(b, []).append((a, v))
    seen, out = set(), []
    for start in adj:
        if start in seen:
            continue
        stack, cells, edges = [start], [], set()
        seen.add(start)
        while stack:
            x = stack.pop()
            cells.append(x)
            for y, v in adj[x]:
                edges.add(v)
                if y not in seen:
                    seen.add(y)
                    stack.append(y)
        if all(len(adj[x]) == 2 for x in cells):
            out.append((set(cells), edges))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--solver", default="cadical195")
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--static", action="store_true")
    ap.add_argument("--gsec", action="store_true", help="cut a cycle by its cells' boundary instead")
    ap.add_argument("cnf")
    a = ap.parse_args()
    names, clauses = read(a.cnf)
    cyc_vars = {v for v, n in names.items() if n.startswith(("arc ", "rank "))}
    links, visit = {}, {}
    for v, n in names.items():
        m = re.fullmatch(r"r(\d+)c(\d+)", n)
        if m:
            visit[tuple(map(int, m.groups()))] = v
        m = re.fullmatch(r"r(\d+)c(\d+)-r(\d+)c(\d+)", n)
        if m:
            r1, c1, r2, c2 = map(int, m.groups())
            links[v] = ((r1, c1), (r2, c2))
    if not a.static:
        clauses = [c for c in clauses if not any(abs(l) in cyc_vars for l in c)]
    start = time.time()
    s = Solver(name=a.solver, bootstrap_with=clauses)
    # The limit also interrupts a single long call, where the solver can be interrupted
    # (PySAT's CaDiCaL cannot: there the limit is checked between rounds).
    def interrupt():
        try:
            s.interrupt()
        except NotImplementedError:
            pass

    timer = threading.Timer(a.limit, interrupt)
    timer.start()
    rounds = cuts = 0
    verdict = "TIMEOUT"
    while time.time() - start < a.limit:
        rounds += 1
        r = s.solve_limited(expect_interrupt=True)
        if r is None:
            break
        if r is False:
            verdict = "UNSAT"
            break
        found = [] if a.static else cycles(s.get_model(), links)
        if not found:
            verdict = "SOLVED"
            break
        for cells, edges in found:
            if a.gsec:
                # A visited cell of the cycle's cells needs a used link out of them (the
                # cells hold no door: a door has one link).
                out = [v for v, (p, q) in links.items() if (p in cells) != (q in cells)]
                for c in cells:
                    s.add_clause([-visit[c]] + out)
                    cuts += 1
            else:
                s.add_clause([-v for v in edges])
                cuts += 1
    timer.cancel()
    print(f"{verdict} {a.solver} {'static' if a.static else 'cuts'}: {rounds} round(s), {cuts} cut(s), "
          f"{time.time() - start:.1f} s; {len(clauses)} clauses, {len(links)} links")
    s.delete()


if __name__ == "__main__":
    main()
