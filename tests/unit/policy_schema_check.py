#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Validator and schema agree: every example of doc/hid-policy.d.5 and every
file of policies/ passes both hid-policyd --check (with no warning) and
policies/schema.json; a set of invalid documents fails both.

Prints PASS:/FAIL:/SKIP: lines for scripts/test.sh."""
import grp
import json
import os
import re
import subprocess
import sys
import tempfile

SUITE = "policy-schema"
src = os.environ.get("HID_POLICY_SRCDIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
build = os.environ.get("HID_POLICY_BUILDDIR") or os.path.join(src, "build")
policyd = os.path.join(build, "policyd", "hid-policyd")
failed = 0


def result(ok, name, detail=""):
    global failed
    if not ok:
        failed += 1
        for line in detail.strip().splitlines():
            print("    " + line)
    print(("PASS: " if ok else "FAIL: ") + SUITE + "/" + name, flush=True)


def man_examples(path):
    """(file name, text) of every '.\\" example: NAME' block of the man page."""
    lines = open(path, encoding="utf-8").read().splitlines()
    examples = []
    for i, line in enumerate(lines):
        m = re.match(r'^\.\\" example: (\S+)$', line)
        if not m:
            continue
        if lines[i + 1] != ".EX":
            raise SystemExit(f"{path}:{i + 2}: an example marker must be followed by .EX")
        end = lines.index(".EE", i + 2)
        # roff escapes used in examples: \e is a backslash, \- a minus
        body = "\n".join(lines[i + 2:end]).replace("\\e", "\\").replace("\\-", "-")
        examples.append((m.group(1), body))
    return examples


def missing_groups(text):
    """Group names the document's senders name that this machine lacks."""
    names = []
    try:
        doc = json.loads(text)
    except ValueError:
        return names
    for ruleset in doc.get("devices", []) if isinstance(doc, dict) else []:
        for rule in ruleset.get("rules", []) if isinstance(ruleset, dict) else []:
            sender = rule.get("sender") if isinstance(rule, dict) else None
            group = sender.get("group", []) if isinstance(sender, dict) else []
            for g in group if isinstance(group, list) else [group]:
                if isinstance(g, str) and g not in names:
                    try:
                        grp.getgrnam(g)
                    except KeyError:
                        names.append(g)
    return names


def check_with_policyd(name, text):
    """hid-policyd --check on a directory holding only this file. Groups
    that an example names and this machine lacks (gamepad-tools) are made
    for the check: in a mount namespace of its own, a copy of /etc/group
    with them added covers the original."""
    groups = missing_groups(text)
    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o755)
        policies = os.path.join(d, "policies")
        os.mkdir(policies)
        with open(os.path.join(policies, name), "w", encoding="utf-8") as f:
            f.write(text)
        cmd = [policyd, "--check", "--config-dir", policies]
        if groups:
            group_file = os.path.join(d, "group")
            with open("/etc/group", encoding="utf-8") as f:
                lines = f.read()
            used = {int(line.split(":")[2]) for line in lines.splitlines()
                    if line.count(":") >= 3 and line.split(":")[2].isdigit()}
            gid = 60000
            with open(group_file, "w", encoding="utf-8") as f:
                f.write(lines)
                for g in groups:
                    while gid in used:
                        gid += 1
                    f.write(f"{g}:x:{gid}:\n")
                    used.add(gid)
            os.chmod(group_file, 0o644)
            cmd = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                   'mount --bind "$1" /etc/group && shift && exec "$@"', "sh",
                   group_file] + cmd
        p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def schema_errors(validator, text):
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        return [f"not JSON: {e}"]
    return [f"{'/'.join(str(x) for x in e.absolute_path)}: {e.message}"
            for e in validator.iter_errors(doc)]


def check_valid(validator, label, name, text):
    rc, out = check_with_policyd(name, text)
    ok = rc == 0 and re.search(r", 0 warnings$", out.strip()) is not None
    result(ok, f"{label}-passes-hid-policyd-check", out)
    errors = schema_errors(validator, text)
    result(not errors, f"{label}-passes-schema", "\n".join(errors))


# Invalid documents that both must refuse: (test name, document).
RULESET = '{"match": {"bus": "usb", "vendor": "0x054c", "product": "0x0ce6"}, "rules": [%s]}'
RULE = '{"name": "r", "request": "set_report", "report_type": "feature", "report_id": 1, "action": "deny"%s}'
INVALID = [
    ("unknown-top-level-key", '{"version": 1, "devices": [], "comment": "x"}'),
    ("version-2", '{"version": 2, "devices": []}'),
    ("devices-missing", '{"version": 1}'),
    ("match-missing", '{"version": 1, "devices": [{"rules": []}]}'),
    ("empty-match", '{"version": 1, "devices": [{"match": {}, "rules": []}]}'),
    ("report-id-hex-without-0x", '{"version": 1, "devices": [%s]}' % (RULESET % RULE.replace('"report_id": 1', '"report_id": "f4"') % "")),
    ("deny-any-request-locks-input", '{"version": 1, "devices": [%s]}' % (RULESET % RULE.replace('"set_report", "report_type": "feature"', '"any"') % "")),
    ("default-deny-without-input-event", '{"version": 1, "devices": [{"match": {"bus": "any"}, "default": "deny", "rules": [%s]}]}' % (RULE % "")),
    ("unknown-usage", '{"version": 1, "devices": [{"match": {"usage": "gamepad"}, "rules": []}]}'),
    ("short-descriptor-hash", '{"version": 1, "devices": [{"match": {"descriptor_sha256": "abcd"}, "rules": []}]}'),
    ("empty-vendor-list", '{"version": 1, "devices": [{"match": {"bus": "usb", "vendor": [], "product": 1}, "rules": []}]}'),
    ("unknown-bus", '{"version": 1, "devices": [{"match": {"bus": "pci", "vendor": 1, "product": 1}, "rules": []}]}'),
    ("vendor-out-of-range", '{"version": 1, "devices": [{"match": {"bus": "usb", "vendor": "1054c", "product": 1}, "rules": []}]}'),
    ("default-errno-with-allow", '{"version": 1, "devices": [{"match": {"bus": "usb", "vendor": 1, "product": 1}, "default": "allow", "default_errno": "EIO", "rules": []}]}'),
    ("unknown-mode", '{"version": 1, "devices": [{"match": {"bus": "usb", "vendor": 1, "product": 1}, "mode": "strict", "rules": []}]}'),
    ("report-id-0x1ff", '{"version": 1, "devices": [%s]}' % (RULESET % RULE.replace('"report_id": 1', '"report_id": "0x1ff"') % "")),
    ("report-id-256", '{"version": 1, "devices": [%s]}' % (RULESET % RULE.replace('"report_id": 1', '"report_id": 256') % "")),
    ("report-id-empty-list", '{"version": 1, "devices": [%s]}' % (RULESET % RULE.replace('"report_id": 1', '"report_id": []') % "")),
    ("rule-unknown-key", '{"version": 1, "devices": [%s]}' % (RULESET % RULE % ', "comment": "x"')),
    ("rule-bad-name", '{"version": 1, "devices": [%s]}' % (RULESET % RULE.replace('"name": "r"', '"name": "a b"') % "")),
    ("log-on-deny", '{"version": 1, "devices": [%s]}' % (RULESET % RULE % ', "log": true')),
    ("errno-on-allow", '{"version": 1, "devices": [%s]}' % (RULESET % RULE.replace('"deny"', '"allow"') % ', "errno": "EPERM"')),
    ("unknown-errno", '{"version": 1, "devices": [%s]}' % (RULESET % RULE % ', "errno": "EWHAT"')),
    ("report-type-on-output-report", '{"version": 1, "devices": [%s]}' % (RULESET % RULE.replace('"set_report"', '"output_report"') % "")),
    ("payload-value-not-hex", '{"version": 1, "devices": [%s]}' % (RULESET % RULE % ', "payload": [{"offset": 1, "value": "zz"}]')),
    ("payload-offset-256", '{"version": 1, "devices": [%s]}' % (RULESET % RULE % ', "payload": [{"offset": 256, "value": 1}]')),
    ("payload-unknown-key", '{"version": 1, "devices": [%s]}' % (RULESET % RULE % ', "payload": [{"offset": 1, "value": 1, "len": 1}]')),
    ("neither-report-id-nor-usage-page", '{"version": 1, "devices": [%s]}' % (RULESET % RULE.replace('"report_id": 1, ', '') % "")),
    ("report-usage-without-page", '{"version": 1, "devices": [%s]}' % (RULESET % RULE % ', "report_usage": 1')),
    ("report-usage-page-out-of-range", '{"version": 1, "devices": [%s]}' % (RULESET % RULE % ', "report_usage_page": "0x1ff02"')),
    ("action-missing", '{"version": 1, "devices": [%s]}' % (RULESET % '{"name": "r", "request": "input_event", "report_id": 1}')),
]

# Version 1's old spellings of numbers in strings: hid-policyd reads them as
# earlier releases did, with a warning (so --check --strict fails); the
# schema, an aid to writing files now, has only the current spelling.
OLD_SPELLINGS = [
    ("vendor-without-0x", '{"version": 1, "devices": [{"match": {"bus": "usb", "vendor": "054c", "product": 1}, "rules": []}]}'),
    ("report-id-decimal-string", '{"version": 1, "devices": [%s]}' % (RULESET % RULE.replace('"report_id": 1', '"report_id": "16"') % "")),
    ("report-id-range-decimal", '{"version": 1, "devices": [%s]}' % (RULESET % RULE.replace('"report_id": 1', '"report_id": "16-0x1f"') % "")),
    ("offset-decimal-string", '{"version": 1, "devices": [%s]}' % (RULESET % RULE % ', "payload": [{"offset": "1", "value": 1}]')),
]


def main():
    try:
        import jsonschema
    except ImportError:
        print("    skip reason: python3-jsonschema is not installed (scripts/deps.sh)")
        print(f"SKIP: {SUITE}/schema-and-validator-agree")
        return 0
    if not os.access(policyd, os.X_OK):
        result(False, "hid-policyd-built", f"{policyd} is missing: build first")
        return 1

    schema = json.load(open(os.path.join(src, "policies", "schema.json"), encoding="utf-8"))
    try:
        jsonschema.Draft7Validator.check_schema(schema)
        result(True, "schema-is-a-valid-draft-07-schema")
    except jsonschema.exceptions.SchemaError as e:
        result(False, "schema-is-a-valid-draft-07-schema", str(e))
        return 1
    validator = jsonschema.Draft7Validator(schema)

    examples = man_examples(os.path.join(src, "doc", "hid-policy.d.5"))
    result(len(examples) >= 4, "man-page-has-examples", f"found {len(examples)}")
    for i, (name, text) in enumerate(examples):
        check_valid(validator, f"man-example-{i + 1}-{name}", name, text)

    shipped = sorted(f for f in os.listdir(os.path.join(src, "policies"))
                     if f.endswith(".json") and f != "schema.json")
    for name in shipped:
        text = open(os.path.join(src, "policies", name), encoding="utf-8").read()
        check_valid(validator, f"policies-{name}", name, text)

    for name, text in OLD_SPELLINGS:
        rc, out = check_with_policyd("t.json", text)
        ok = (rc == 0 and re.search(r", 1 warning$", out.strip()) is not None
              and "in the old spelling" in out)
        result(ok, f"old-spelling-{name}-passes-hid-policyd-check-with-a-warning", out)
        errors = schema_errors(validator, text)
        result(bool(errors), f"old-spelling-{name}-fails-schema", "the schema accepted it")

    for name, text in INVALID:
        rc, out = check_with_policyd("t.json", text)
        result(rc == 1 and "policy rejected" in out, f"invalid-{name}-fails-hid-policyd-check", out)
        errors = schema_errors(validator, text)
        result(bool(errors), f"invalid-{name}-fails-schema", "the schema accepted it")
    return 1 if failed else 0


sys.exit(main())
