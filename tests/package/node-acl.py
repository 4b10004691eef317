#!/usr/bin/python3
# The POSIX access ACL of a file, one entry a line as getfacl prints them
# ("user:bob:rw-", "mask::rw-"), each named entry with its effective rights
# after the mask ("user:bob:rw-\t#effective:---" when the mask takes some),
# and nothing when the file has no ACL beyond its mode. getfacl (package
# acl) is not in the suite's Debian root; this reads what it reads, the
# system.posix_acl_access attribute, laid out as the kernel's uapi says:
# a 32-bit version 2 (include/uapi/linux/posix_acl_xattr.h,
# POSIX_ACL_XATTR_VERSION), then entries of a 16-bit tag and permission and
# a 32-bit id, little-endian (struct posix_acl_xattr_entry), the tags of
# include/uapi/linux/posix_acl.h.
# Usage: node-acl.py FILE
import errno
import grp
import os
import pwd
import struct
import sys

USER_OBJ, USER, GROUP_OBJ, GROUP, MASK, OTHER = 0x01, 0x02, 0x04, 0x08, 0x10, 0x20
TAGS = {USER_OBJ: "user", USER: "user", GROUP_OBJ: "group", GROUP: "group",
        MASK: "mask", OTHER: "other"}


def rights(perm):
    return "".join(c if perm & bit else "-" for c, bit in (("r", 4), ("w", 2), ("x", 1)))


def name(tag, ident):
    try:
        if tag == USER:
            return pwd.getpwuid(ident).pw_name
        if tag == GROUP:
            return grp.getgrgid(ident).gr_name
    except KeyError:
        return str(ident)
    return ""


def main():
    try:
        raw = os.getxattr(sys.argv[1], "system.posix_acl_access")
    except OSError as e:
        if e.errno == errno.ENODATA:
            return 0
        print(f"node-acl.py: {sys.argv[1]}: {e.strerror}", file=sys.stderr)
        return 1
    (version,) = struct.unpack_from("<I", raw)
    if version != 2 or (len(raw) - 4) % 8:
        print(f"node-acl.py: {sys.argv[1]}: not an ACL of version 2", file=sys.stderr)
        return 1
    entries = [struct.unpack_from("<HHI", raw, off) for off in range(4, len(raw), 8)]
    mask = next((perm for tag, perm, _ in entries if tag == MASK), 7)
    for tag, perm, ident in entries:
        line = f"{TAGS.get(tag, hex(tag))}:{name(tag, ident)}:{rights(perm)}"
        if tag in (USER, GROUP_OBJ, GROUP) and perm & ~mask:
            line += f"\t#effective:{rights(perm & mask)}"
        print(line)
    return 0


sys.exit(main())
