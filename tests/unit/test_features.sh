#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The probe table (framework/backend/xdp/features.c) as `xskf features --json` gives it: every
# row has its name and what xskf does without it; the rows issue 43 asks for are there; each
# row forced off by XSKF_FEATURES_OFF=NAME is that row alone (forced_off true, works false),
# and where `uses` reports the feature, it changes with it. "all" forces every row. Without
# root the probes cannot load or bind: exit 77.
set -euo pipefail
XSKF=${XSKF_BUILD:?}/apps/xskf
[ "$(id -u)" = 0 ] || { echo "skip: the probes load programs and bind sockets: root"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
env -u XSKF_FEATURES_OFF "$XSKF" features --json >"$dir/none.json"
names=$(/usr/bin/python3 -c 'import json,sys; print(" ".join(r["feature"] for r in json.load(open(sys.argv[1]))["features"]))' "$dir/none.json")
for n in $names all; do
	XSKF_FEATURES_OFF=$n "$XSKF" features --json >"$dir/$n.json"
done
/usr/bin/python3 - "$dir" $names <<'PY'
import json, sys
d, names = sys.argv[1], sys.argv[2:]
load = lambda n: json.load(open(f"{d}/{n}.json"))
base = load("none")
rows = {r["feature"]: r for r in base["features"]}
want = ["adjust_meta", "adjust_head", "frags", "ext", "bpffs", "xskmap", "cpumap", "devmap",
        "live_frames", "need_wakeup", "xsk_sg", "busy_poll", "tx_budget", "bpf_nocap",
        "rx_kfuncs", "tx_metadata", "netdev_genl", "napi_ids", "skb_cpumap"]
missing = [n for n in want if n not in rows]
assert not missing, f"rows missing: {missing}"
for r in base["features"]:
    assert r["without"], f"{r['feature']}: no 'without' text"
    assert not r["forced_off"], f"{r['feature']}: forced off with XSKF_FEATURES_OFF unset"
    assert r["works"] == (r["error"] == ""), f"{r['feature']}: works {r['works']}, error '{r['error']}'"
print(f"ok - {len(rows)} rows, each with what xskf does without it")
# the rows `uses` reports as true/false: each follows its row
used = ["rx_kfuncs", "tx_metadata", "busy_poll", "napi_ids", "netdev_genl"]
for n in names:
    f = load(n)
    for r in f["features"]:
        if r["feature"] == n:
            assert r["forced_off"] and not r["works"] and r["error"] == "", f"{n}: {r}"
        else:
            b = rows[r["feature"]]
            assert not r["forced_off"] and r["works"] == b["works"], \
                f"XSKF_FEATURES_OFF={n} changed row {r['feature']}: {r}"
    for u in used:
        want_u = False if u == n else base["uses"][u]
        assert f["uses"][u] == want_u, f"XSKF_FEATURES_OFF={n}: uses.{u} {f['uses'][u]}"
    if n == "adjust_meta":
        assert f["uses"]["hints"] == ("headroom" if rows["adjust_head"]["works"] else "userspace")
    if n == "live_frames":
        assert f["uses"]["trafficgen"] == "xsk"
    print(f"ok - XSKF_FEATURES_OFF={n}: that row alone forced off, uses follow")
a = load("all")
assert all(r["forced_off"] and not r["works"] for r in a["features"]), a
# neither adjust helper: the hints are computed in userspace (core/hints_in.c)
assert not any(a["uses"][u] for u in used) and a["uses"]["hints"] == "userspace", a["uses"]
print("ok - XSKF_FEATURES_OFF=all: every row forced off")
PY
