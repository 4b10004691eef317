#!/bin/bash
# The man page examples and policies/ pass both hid-policyd --check and
# policies/schema.json; invalid documents fail both.
exec python3 "$(dirname "${BASH_SOURCE[0]}")/policy_schema_check.py"
