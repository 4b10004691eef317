#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Summarize scripts/bench.sh's figures: lines "KERNEL ROUND NAME VALUE",
one per figure per boot. KERNEL is port, upstream or the label of an image
bench.sh --image booted (such as port-before).

Prints, for every figure, its median over the rounds on each kernel with the
spread ((max - min) / |median|) and each kernel's median over upstream's;
then the ratios taken within each boot (side by side: a device with a
program or the daemon's rules against a bare one, with them against the
same device without them, that device's ratio to the bare one with them
against without them, 16 and 64 rules against 1, this build against the
baseline), as median and spread over the boots."""
import re
import statistics
import sys
from collections import defaultdict

REFERENCE = "upstream"
# the path cases bench-firewall measures against none, the same device with
# nothing attached
WITH_CASES = ("pass", "shipped", "firewall")

# Goals (issue 39, the daemon's start): (figure, at most, why). The
# verifier's instructions are the same in every boot: a goal on them holds
# or not on each kernel, whatever the host's load. A figure may carry the
# prefix after. of a run with --baseline.
GOALS = [
    ("start.verified_insns.fw_hw_request", 10000,
     "each firewall program verified in at most 10,000 instructions"),
    ("start.verified_insns.fw_output_report", 10000,
     "each firewall program verified in at most 10,000 instructions"),
    ("start.verified_insns.fw_device_event", 10000,
     "each firewall program verified in at most 10,000 instructions"),
]
# Goals on ratios within each boot (this build over the --baseline's).
RATIO_GOALS = [
    ("after.start.protected_ms", "before.start.protected_ms", 0.5,
     "a device present at the daemon's start is protected in half the time"),
]


def load(path):
    """(kernels in order of appearance, upstream last; boots)"""
    boots = defaultdict(dict)  # (kernel, round) -> {name: value}
    kernels = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 4 or not parts[1].isdigit():
                continue
            if parts[0] not in kernels:
                kernels.append(parts[0])
            boots[(parts[0], int(parts[1]))][parts[2]] = float(parts[3])
    kernels.sort(key=lambda k: k == REFERENCE)
    return kernels, boots


def stats(values):
    if not values:
        return None
    med = statistics.median(values)
    spread = (max(values) - min(values)) / abs(med) if med else 0.0
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
        # with a program or the daemon's rules against none, same device;
        # for _vs_bare, a bias of one device that lasts the whole boot cancels
        m = re.match(r"^((?:before|after)\.)?rate\.(\w+)\.((?:input|request)(?:_vs_bare)?)$",
                     name)
        if m and m.group(2) in WITH_CASES:
            den = f"{m.group(1) or ''}rate.none.{m.group(3)}"
            if den in names:
                pairs.append((name, den))
        m = re.match(r"^after\.(.*)$", name)
        if m and f"before.{m.group(1)}" in names:
            pairs.append((name, f"before.{m.group(1)}"))
    return pairs


def print_goals(kernels, per, boots):
    """Each goal whose figure was measured: its median on each kernel, met
    or missed."""
    lines = []
    for name, most, why in GOALS:
        for prefix in ("", "after."):
            for k in kernels:
                st = stats(per[k].get(prefix + name, []))
                if st:
                    lines.append(f"  {k:<10} {prefix + name} = {st[0]:.4g} (at most {most}): "
                                 f"{'met' if st[0] <= most else 'MISSED'}; {why}")
    for num, den, most, why in RATIO_GOALS:
        for k in kernels:
            vals = [figs[num] / figs[den] for (kk, _), figs in boots.items()
                    if kk == k and num in figs and den in figs and figs[den]]
            st = stats(vals)
            if st:
                lines.append(f"  {k:<10} {num} / {den} = {st[0]:.3f} (at most {most}): "
                             f"{'met' if st[0] <= most else 'MISSED'}; {why}")
    if lines:
        print("\ngoals:")
        print("\n".join(lines))


def main():
    kernels, boots = load(sys.argv[1])
    names = sorted({n for figs in boots.values() for n in figs})
    per = {k: defaultdict(list) for k in kernels}
    for (k, _), figs in boots.items():
        for n, v in figs.items():
            per[k][n].append(v)
    others = [k for k in kernels if k != REFERENCE]
    rel_heads = [f"{k}/{REFERENCE}" for k in others] if REFERENCE in kernels else []

    print("\nfigure: median ±spread over boots, " + " | ".join(kernels + rel_heads))
    width = max((len(n) for n in names), default=10)
    for n in names:
        st = {k: stats(per[k][n]) for k in kernels}
        cols = [f"{fmt(st[k]):>26}" for k in kernels]
        if rel_heads:
            u = st[REFERENCE]
            cols += [f"{st[k][0] / u[0]:.3f}" if st[k] and u and u[0] else "-" for k in others]
        print(f"  {n:<{width}}  " + " | ".join(cols))

    print_goals(kernels, per, boots)
    pairs = ratio_pairs(set(names))
    if not pairs:
        return
    print("\nratios within each boot: median ±spread over boots, " + " | ".join(kernels))
    width = max(len(f"{a} / {b}") for a, b in pairs)
    for a, b in pairs:
        cols = []
        for k in kernels:
            vals = [figs[a] / figs[b] for (kk, _), figs in boots.items()
                    if kk == k and a in figs and b in figs and figs[b]]
            cols.append(f"{fmt(stats(vals), 3):>24}")
        print(f"  {a + ' / ' + b:<{width}}  " + " | ".join(cols))


if __name__ == "__main__":
    main()
