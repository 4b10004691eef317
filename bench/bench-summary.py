#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Summarize scripts/bench.sh's figures: lines "KERNEL ROUND NAME VALUE",
one per figure per boot.

Prints, for every figure, its median over the rounds on each kernel with the
spread ((max - min) / median) and the port's median over upstream's; then
the ratios taken within each boot (side by side: with a program or the
daemon against none, 16 and 64 rules against 1, this build against the
baseline), as median and spread over the boots."""
import re
import statistics
import sys
from collections import defaultdict

KERNELS = ("port", "upstream")


def load(path):
    boots = defaultdict(dict)  # (kernel, round) -> {name: value}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 4 or parts[0] not in KERNELS:
                continue
            boots[(parts[0], int(parts[1]))][parts[2]] = float(parts[3])
    return boots


def stats(values):
    if not values:
        return None
    med = statistics.median(values)
    spread = (max(values) - min(values)) / med if med else 0.0
    return med, spread, len(values)


def fmt(s, digits=4):
    if s is None:
        return "-"
    med, spread, n = s
    return f"{med:.{digits}g} ±{spread * 100:.1f}% (n={n})"


def ratio_pairs(names):
    """(numerator, denominator) names measured in the same boot."""
    pairs = []
    for name in sorted(names):
        # a device set up by the case against the bare one beside it
        m = re.match(r"^((?:before|after)\.)?(rate|ftrace)\.(\w+)\.(?!bare_)(.*)$", name)
        if m:
            den = f"{m.group(1) or ''}{m.group(2)}.{m.group(3)}.bare_{m.group(4)}"
            if den in names:
                pairs.append((name, den))
        m = re.match(r"^((?:before|after)\.)?rules\.(16|64)\.(.*)$", name)
        if m:
            den = f"{m.group(1) or ''}rules.1.{m.group(3)}"
            if den in names:
                pairs.append((name, den))
        m = re.match(r"^after\.(.*)$", name)
        if m and f"before.{m.group(1)}" in names:
            pairs.append((name, f"before.{m.group(1)}"))
    return pairs


def main():
    boots = load(sys.argv[1])
    names = sorted({n for figs in boots.values() for n in figs})
    per = {k: defaultdict(list) for k in KERNELS}
    for (k, _), figs in boots.items():
        for n, v in figs.items():
            per[k][n].append(v)

    print("\nfigure: median ±spread over boots, port | upstream | port/upstream")
    width = max((len(n) for n in names), default=10)
    for n in names:
        p, u = stats(per["port"][n]), stats(per["upstream"][n])
        rel = f"{p[0] / u[0]:.3f}" if p and u and u[0] else "-"
        print(f"  {n:<{width}}  {fmt(p):>26} | {fmt(u):>26} | {rel}")

    pairs = ratio_pairs(set(names))
    if not pairs:
        return
    print("\nratios within each boot: median ±spread over boots, port | upstream")
    width = max(len(f"{a} / {b}") for a, b in pairs)
    for a, b in pairs:
        cols = []
        for k in KERNELS:
            vals = [figs[a] / figs[b] for (kk, _), figs in boots.items()
                    if kk == k and a in figs and b in figs and figs[b]]
            cols.append(fmt(stats(vals), 3))
        print(f"  {a + ' / ' + b:<{width}}  {cols[0]:>24} | {cols[1]:>24}")


if __name__ == "__main__":
    main()
