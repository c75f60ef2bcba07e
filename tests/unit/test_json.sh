#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The --json report is valid JSON with the documented members (parsed by a real JSON parser).
set -euo pipefail
out=$("$1")
/usr/bin/python3 - "$out" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
assert d["app"] == "json-unit", d
assert abs(d["duration_s"] - 1.5) < 1e-9
assert d["hints_in"] in ("data_meta", "headroom", "userspace", "none"), d["hints_in"]
assert d["ports"][0]["name"] == "lo" and d["ports"][0]["rx_queues"] >= 1
assert d["queues"] == [] and d["census"] == [] and d["census_ok"] is True
assert d["app_stats"] == {"ports": 1}
print("ok - JSON report parses, members present")
PY
