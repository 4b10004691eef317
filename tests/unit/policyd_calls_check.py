#!/usr/bin/env python3
"""Calls between policyd's files go one way, downwards: no two files (and no
ring of files) call each other's functions, and no two of its rooms
(folders) do. Beyond calls, the rooms stand in the order ROOMS: a room's
files include headers (types, inline functions) only of rooms below it,
hid-policyctl (ctl) shares only common/ and the policy library with the
daemon, and no room holds more than ROOM_FILES_MAX C files.

Who calls whom is read from the build's object files (nm): a function one
object leaves undefined and another source file of policyd/ defines is a
call (or a function pointer taken) from the first file to the second.
Static functions never leave their file and are not looked at.
Prints PASS:/FAIL: lines like the other unit tests.
"""
import glob
import json
import os
import re
import subprocess
import sys
from collections import defaultdict

repo = os.environ.get("HID_POLICY_SRCDIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
build = os.environ.get("HID_POLICY_BUILDDIR") or os.path.join(repo, "build")
suite = "policyd-calls"
failed = 0

# From the bottom: each room may use the rooms before it. ctl stands apart.
ROOMS = ["common", "policy", "hid", "state", "audit", "enforce", "control", "service"]
CTL_MAY_USE = {"common", "policy"}
ROOM_FILES_MAX = 16
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"', re.M)


def report(ok, name, details=()):
    global failed
    for line in details:
        print("    " + line)
    print(f"{'PASS' if ok else 'FAIL'}: {suite}/{name}")
    failed += not ok


def policyd_objects():
    """(source path relative to the repository, object path) of every
    policyd/ source the build compiles."""
    with open(os.path.join(build, "compile_commands.json")) as f:
        commands = json.load(f)
    for c in commands:
        src = os.path.normpath(os.path.join(c["directory"], c["file"]))
        rel = os.path.relpath(src, repo)
        if rel.startswith("policyd" + os.sep) and rel.endswith(".c"):
            yield rel, os.path.join(c["directory"], c["output"])


def symbols(obj):
    """(functions defined, symbols used but not defined) of one object."""
    out = subprocess.run(["nm", "-P", "-g", obj], check=True, capture_output=True,
                         text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        if kind == "U":
            undefined.add(name)
        elif kind in "TW":
            defined.add(name)
    return defined, undefined


def rings(nodes, edges):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def describe(ring, calls):
    """One line per call between members of RING: 'a.c -> b.c: f, g'."""
    return [f"{a} -> {b}: {', '.join(sorted(calls[a, b]))}"
            for a in ring for b in ring if (a, b) in calls]


def main():
    try:
        objects = sorted(set(policyd_objects()))
    except OSError as e:
        report(False, "files_call_only_downwards", [f"{e} (build first)"])
        return 1
    defined_in, uses = {}, defaultdict(set)
    missing = [obj for _, obj in objects if not os.path.exists(obj)]
    if not objects or missing:
        details = [f"{obj} is missing: build first" for obj in missing] or [
            f"no policyd/ source in {build}/compile_commands.json"]
        report(False, "files_call_only_downwards", details)
        return 1
    for src, obj in objects:
        defined, undefined = symbols(obj)
        for name in defined:
            defined_in[name] = src
        uses[src] |= undefined

    files = {src for src, _ in objects}
    file_edges, file_calls = defaultdict(set), defaultdict(set)
    room_edges, room_calls = defaultdict(set), defaultdict(set)
    for src in files:
        for name in uses[src]:
            dst = defined_in.get(name)
            if dst is None or dst == src:
                continue
            file_edges[src].add(dst)
            file_calls[src, dst].add(name)
            a, b = os.path.dirname(src), os.path.dirname(dst)
            if a != b:
                room_edges[a].add(b)
                room_calls[a, b].add(f"{os.path.basename(src)}:{name}")

    found = rings(files, file_edges)
    details = []
    for ring in found:
        details.append("these files call each other: " + " ".join(ring))
        details += ["  " + line for line in describe(ring, file_calls)]
    report(not found, "files_call_only_downwards", details)

    rooms = {os.path.dirname(src) for src in files}
    found = rings(rooms, room_edges)
    details = []
    for ring in found:
        details.append("these rooms call each other: " + " ".join(ring))
        details += ["  " + line for line in describe(ring, room_calls)]
    report(not found, "rooms_call_only_downwards", details)
    check_includes()
    check_room_sizes()
    return 1 if failed else 0


def may_use(room, other):
    if room == "ctl":
        return other in CTL_MAY_USE
    if room not in ROOMS or other not in ROOMS:
        return False
    return ROOMS.index(other) < ROOMS.index(room)


def check_includes():
    """A header of another room is included only from above it."""
    details = []
    rooms = sorted(os.path.basename(d) for d in glob.glob(os.path.join(repo, "policyd", "*"))
                   if glob.glob(os.path.join(d, "*.[ch]")))
    for room in rooms:
        if room not in ROOMS and room != "ctl":
            details.append(f"policyd/{room}/ is not a room of ROOMS: say where it stands")
    for path in sorted(glob.glob(os.path.join(repo, "policyd", "*", "*.[ch]"))):
        room = os.path.basename(os.path.dirname(path))
        with open(path) as f:
            text = f.read()
        for other in INCLUDE.findall(text):
            if other in ("bpf", room) or may_use(room, other):
                continue
            details.append(f"{os.path.relpath(path, repo)} includes a header of "
                           f"{other}/, which {room}/ may not use")
    report(not details, "rooms_include_only_rooms_below", details)


def check_room_sizes():
    details = []
    for d in sorted(glob.glob(os.path.join(repo, "policyd", "*"))):
        n = len(glob.glob(os.path.join(d, "*.c")))
        if n > ROOM_FILES_MAX:
            details.append(f"{os.path.relpath(d, repo)}/ holds {n} C files "
                           f"(at most {ROOM_FILES_MAX}): split it by job")
    report(not details, "rooms_are_small", details)


if __name__ == "__main__":
    sys.exit(main())
