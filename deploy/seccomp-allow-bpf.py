#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
#
# seccomp-allow-bpf.py DEFAULT.json OUT.json: a container runtime's default seccomp profile
# (podman's /usr/share/containers/seccomp.json, containerd's or Docker's default in the same
# OCI/Docker JSON format) that also allows the few bpf() commands a served app uses, without
# CAP_SYS_ADMIN.
#
# Why: the default profiles allow bpf() only to a container holding CAP_SYS_ADMIN, and an xskf
# app served an XSKMAP (--xsk-map, --xsk-map-uds) needs bpf() without it: BPF_OBJ_GET on the
# pinned map, BPF_OBJ_GET_INFO_BY_FD (its id, said at start), BPF_MAP_UPDATE_ELEM to enter its
# socket, BPF_MAP_DELETE_ELEM to take it out at exit. DPDK 22.11's af_xdp driver (use_cni,
# use_pinned_map) needs the same: the map's fd, then xsk_socket__update_xskmap(), an update.
# Only those commands are allowed, by the first argument (issue 44): no BPF_PROG_LOAD, no
# BPF_MAP_CREATE, no lookups or walks of other maps by id. What the kernel allows an
# unprivileged process to do with them is still the kernel's to decide
# (kernel.unprivileged_bpf_disabled, the pinned files' modes); a rule that allows bpf() with
# CAP_SYS_ADMIN, and everything else in the profile, is left as it was.
import json
import sys

# enum bpf_cmd (include/uapi/linux/bpf.h): stable numbers, the kernel's ABI
SERVED_BPF_CMDS = {
    "BPF_MAP_UPDATE_ELEM": 2,
    "BPF_MAP_DELETE_ELEM": 3,
    "BPF_OBJ_GET": 7,
    "BPF_OBJ_GET_INFO_BY_FD": 15,
}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: seccomp-allow-bpf.py DEFAULT.json OUT.json")
    try:
        with open(sys.argv[1]) as f:
            prof = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"seccomp-allow-bpf: cannot read the profile {sys.argv[1]}: {e}")
    rules = prof.get("syscalls")
    if not isinstance(rules, list):
        sys.exit(f"seccomp-allow-bpf: {sys.argv[1]} has no 'syscalls' list: not a seccomp profile")
    kept = []
    for r in rules:
        names = r.get("names", [])
        # rules that refuse bpf() (those for callers without CAP_SYS_ADMIN) lose it
        if "bpf" in names and r.get("action") != "SCMP_ACT_ALLOW":
            names = [n for n in names if n != "bpf"]
            if not names:
                continue
            r = dict(r, names=names)
        kept.append(r)
    # one rule per command: the args of one rule must all hold (AND)
    for name, cmd in SERVED_BPF_CMDS.items():
        kept.append({"names": ["bpf"], "action": "SCMP_ACT_ALLOW",
                     "args": [{"index": 0, "value": cmd, "valueTwo": 0, "op": "SCMP_CMP_EQ"}],
                     "comment": f"xskf: a served AF_XDP app's {name}"})
    prof["syscalls"] = kept
    try:
        with open(sys.argv[2], "w") as f:
            json.dump(prof, f, indent=1)
            f.write("\n")
    except OSError as e:
        sys.exit(f"seccomp-allow-bpf: cannot write {sys.argv[2]}: {e}")


main()
