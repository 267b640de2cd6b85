"""Reading the machine: the speed of its cores at the moment, the memory of a process tree."""

import time


def machine_speed() -> float:
    """Seconds for ten million additions in a Python loop: the speed of this machine's cores
    at the moment, for reading the figures (a virtual machine's varies by half within an hour
    here; ``manage.py bench`` cannot make it steady)."""
    start = time.perf_counter()
    total = 0
    for number in range(10_000_000):
        total += number
    return time.perf_counter() - start


def tree_pss(pid: int) -> int:
    """Proportional memory (kB) of a process and its children: forked workers share pages with
    their parent, so adding up RSS would count those pages several times."""
    pids = [pid]
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            pids += [int(child) for child in children.read().split()]
    except OSError:
        pass
    total = 0
    for each in pids:
        try:
            with open(f"/proc/{each}/smaps_rollup") as rollup:
                total += next((int(line.split()[1]) for line in rollup if line.startswith("Pss:")), 0)
        except OSError:
            continue
    return total
