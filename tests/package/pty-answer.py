#!/usr/bin/python3
"""Run a command on a new pseudo-terminal, as a user at a terminal would:
type each ANSWER when the program's output shows a password prompt, print
everything it wrote, and exit with its exit status (124 on a timeout).

Usage: pty-answer.py TIMEOUT_SECONDS -- COMMAND [ARGS...] < ANSWERS
ANSWERS: one answer a line on standard input (none: no answers)."""
import os
import pty
import select
import sys
import termios
import time


def wait_echo_off(fd, deadline):
    """Type only once the program reads the password: a polkit agent turns
    echo off with TCSAFLUSH, which throws away what was typed before."""
    while time.monotonic() < deadline:
        if not termios.tcgetattr(fd)[3] & termios.ECHO:
            return
        time.sleep(0.05)


def main():
    timeout = float(sys.argv[1])
    answers = [line.rstrip("\n") for line in sys.stdin]
    cmd = sys.argv[sys.argv.index("--") + 1:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(cmd[0], cmd)
    out = b""
    seen = 0
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            sys.stdout.write(out.decode(errors="replace"))
            return 124
        ready, _, _ = select.select([fd], [], [], min(left, 1.0))
        if ready:
            try:
                data = os.read(fd, 4096)
            except OSError:
                data = b""
            if not data:
                break
            out += data
            if answers and out.count(b"Password:") > seen:
                seen = out.count(b"Password:")
                wait_echo_off(fd, deadline)
                os.write(fd, answers.pop(0).encode() + b"\n")
    _, status = os.waitpid(pid, 0)
    sys.stdout.write(out.decode(errors="replace"))
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main())
