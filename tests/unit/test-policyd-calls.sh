#!/bin/bash
# No two files of policyd/ (and no ring of them) call each other's
# functions, and no two of its rooms (common, policy, daemon, ctl) do: read
# from the build's object files with nm.
exec python3 "$(dirname "${BASH_SOURCE[0]}")/policyd_calls_check.py"
