#!/usr/bin/env python3
"""What fwupd lists of the package guest's USB replicas.

Reads `fwupdmgr get-devices --json` on stdin and prints, sorted, one line
for each device fwupd lists that is one of the replicas below (one of its
GUIDs is the replica's) or hangs below one (ParentDeviceId: a receiver's
paired devices, where fwupd lists them):

    REPLICA | Name | Plugin | Version | GUID GUID ...

Only what does not change from one run to the next is kept: not the
DeviceId (a hash of the USB path, another one when the replica gets the
other dummy_hcd port), Created, Modified, Flags, nor the update state a
failed install leaves behind.

fwupd's GUIDs are name-based UUIDs, version 5 in the DNS namespace, of
instance IDs (libfwupd/fwupd-common.c, fwupd_guid_hash_data): a hidraw
device's is HIDRAW\\VEN_vvvv&DEV_pppp, a USB device's USB\\VID_vvvv&PID_pppp,
and Logitech's receivers have UFY\\VID_vvvv&PID_pppp too
(plugins/logitech-hidpp/fu-logitech-hidpp-runtime.c), the IDs in upper case.
"""
import json
import sys
import uuid

REPLICAS = {
    "receiver": (0x046D, 0xC52B),   # Logitech Unifying receiver
    "dualsense": (0x054C, 0x0CE6),  # Sony DualSense
}


def guids(vendor, product):
    ids = (f"HIDRAW\\VEN_{vendor:04X}&DEV_{product:04X}",
           f"USB\\VID_{vendor:04X}&PID_{product:04X}",
           f"UFY\\VID_{vendor:04X}&PID_{product:04X}")
    return {str(uuid.uuid5(uuid.NAMESPACE_DNS, i)) for i in ids}


def main():
    devices = json.load(sys.stdin).get("Devices", [])
    by_id = {d.get("DeviceId"): d for d in devices}
    lines = []
    for d in devices:
        replica = None
        seen = set()
        at = d
        while at is not None and replica is None and at.get("DeviceId") not in seen:
            seen.add(at.get("DeviceId"))
            for name, ids in REPLICAS.items():
                if guids(*ids) & set(at.get("Guid", [])):
                    replica = name
            at = by_id.get(at.get("ParentDeviceId"))
        if replica is None:
            continue
        lines.append(" | ".join([replica, d.get("Name", ""), d.get("Plugin", ""),
                                 d.get("Version", ""), " ".join(sorted(d.get("Guid", [])))]))
    for line in sorted(lines):
        print(line)


if __name__ == "__main__":
    main()
