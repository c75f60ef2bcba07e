#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# An xskf app in a container, unprivileged, served by the host (docs/operations.md,
# "Containers"):
#   test_container.sh pinned  - the image is built from the Containerfile (target prebuilt: this
#                               build, meson install --destdir, on a base that the test makes:
#                               debootstrap bookworm, podman import; no registry, no apt in the
#                               build); a privileged xsk-rxdrop on the host holds the program,
#                               queue 0, and serves queue 1 (--serve 1 --pin-dir); in the
#                               container, xsk-rxdrop as nobody, bounding set CAP_NET_RAW alone,
#                               a seccomp profile that allows bpf() (deploy/seccomp-allow-bpf.py)
#                               and the pin folder bind-mounted, takes queue 1 (--xsk-map): exact
#                               counts on both runs, read live from the host through the
#                               container's control socket (its folder bind-mounted) and from
#                               its --json at exit
#   test_container.sh uds     - the same, the XSKMAP taken from the host run's device-plugin
#                               socket (--serve-uds), its folder bind-mounted (--xsk-map-uds);
#                               the image's own control folder, its counters read by the
#                               image's xskfctl (podman exec)
#
# The root filesystem is made once and kept in XSKF_CONTAINER_CACHE (default
# /var/cache/xskf-container: rootfs/, the .debs), and its image kept as
# localhost/xskf-test-base:bookworm; the app's image, the container, the bed, the pins go at exit.
# XSKF_CONTAINER_IMAGE=NAME runs the app from an image made otherwise (e.g. `podman build -t NAME
# -f Containerfile .`, from source) instead of building one, and keeps it.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
case_name=${1:?case}
CACHE=${XSKF_CONTAINER_CACHE:-/var/cache/xskf-container}
MIRROR=${XSKF_LAB_MIRROR:-http://deb.debian.org/debian}
BASE=localhost/xskf-test-base:bookworm
# the runtime libraries of xskf's binaries (the Containerfile's RUNTIME_PKGS)
ROOT_PKGS="libbpf1 libxdp1 liburcu8 libnuma1 libpcap0.8"
PROFILE=/usr/share/containers/seccomp.json

command -v podman >/dev/null || skip "no podman (apt-get install podman)"
podman info >/dev/null 2>&1 || skip "podman cannot run here: $(podman info 2>&1 | grep -m1 .)"
[ -r "$PROFILE" ] || skip "no default seccomp profile $PROFILE (apt-get install podman)"
[ -x "$RXDROP" ] || fail "no $RXDROP (ninja -C build)"
# the image holds the runtime libraries of a plain build (scripts/test.sh's first pass); ldd's
# output read whole first: `ldd | grep -q` under pipefail fails when grep leaves before ldd's
# last line (SIGPIPE), which let a sanitizer build through once
libs=$(ldd "$RXDROP")
[ -n "${XSKF_CONTAINER_IMAGE:-}" ] || ! grep -q 'libasan\|libubsan' <<<"$libs" ||
	skip "$B is a sanitizer build: the image has no libasan/libubsan (the plain build's pass runs this test)"

# runc: crun 1.8 refuses a host whose cgroups are v1 and v2 side by side ("cgroups in hybrid
# mode not supported"), as this one's. The limits: podman asks the runtime for 1M open files
# (and 1M processes once one limit is given), which a root without CAP_SYS_RESOURCE (this
# machine's) cannot raise to; podman itself lowers its process limit to 32768 first.
PODMAN=(podman --runtime runc)
hn=$(ulimit -Hn)
hu=$(ulimit -Hu)
[ "$hu" = unlimited ] || [ "$hu" -gt 32768 ] && hu=32768
LIMITS=(--ulimit "nofile=$hn:$hn" --ulimit "nproc=$hu:$hu")
command -v runc >/dev/null || skip "no runc (apt-get install runc)"

mkdir -p "$CACHE" || skip "cannot make the cache folder $CACHE"
exec 9>"$CACHE/.lock"
flock -w 900 9 || fail "the cache $CACHE stays locked by another run"

# The base: a minimal bookworm (the host's release: the image runs this build's binaries) with
# the runtime libraries, made by debootstrap once; imported once as $BASE. The image is made
# again when the root filesystem is.
root=$CACHE/rootfs
if [ ! -e "$root/.xskf-complete" ]; then
	echo "# root filesystem: debootstrap bookworm into $root (minutes, once; the .debs are kept)"
	rm -rf "$root.tmp"
	mkdir -p "$CACHE/debs"
	if ! debootstrap --variant=minbase --cache-dir="$CACHE/debs" --include="${ROOT_PKGS// /,}" \
		bookworm "$root.tmp" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1; then
		rm -rf "$root.tmp"
		grep -q "Failure trying to run\|Couldn't download\|Failed getting release file" \
			"$CACHE/debootstrap.log" &&
			skip "Debian's mirror $MIRROR is not reachable: $(grep -m1 -E '^E:' "$CACHE/debootstrap.log")"
		fail "debootstrap failed: $(tail -1 "$CACHE/debootstrap.log") (log: $CACHE/debootstrap.log)"
	fi
	# a container has no use for the .debs and the apt lists
	rm -rf "$root.tmp"/var/cache/apt/archives/*.deb "$root.tmp"/var/lib/apt/lists/*
	date -u >"$root.tmp/.xskf-complete"
	rm -rf "$root"
	mv "$root.tmp" "$root"
	podman rmi -f "$BASE" >/dev/null 2>&1
fi
stamp=$(cat "$root/.xskf-complete")
if [ "$(podman image inspect -f '{{index .Config.Labels "xskf.rootfs"}}' "$BASE" 2>/dev/null)" != "$stamp" ]; then
	podman rmi -f "$BASE" >/dev/null 2>&1
	tar -C "$root" --numeric-owner --exclude=./.xskf-complete -c . |
		podman import --change "LABEL xskf.rootfs=\"$stamp\"" \
			--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
			- "$BASE" >"$CACHE/import.log" 2>&1 ||
		fail "podman import of $root: $(tail -1 "$CACHE/import.log")"
fi
ok "base image $BASE from $root (made $stamp)"

# the veth bed, $out, a control folder and a bpffs of the test's own, PINS (serve_lib.sh)
. "$S/tests/integration/serve_lib.sh"
serve_bed_up "ct$$"
if [ -n "${XSKF_CONTAINER_IMAGE:-}" ]; then
	# an image made otherwise (the Containerfile's default target, from source), kept
	IMAGE=$XSKF_CONTAINER_IMAGE
	podman image exists "$IMAGE" || fail "no image $IMAGE (XSKF_CONTAINER_IMAGE)"
	ok "image $IMAGE (XSKF_CONTAINER_IMAGE)"
else
	# this build, installed as a package would be, in the build's context
	ctx=$out/ctx
	meson install -C "$B" --destdir "$ctx/destdir" --no-rebuild --quiet >"$out/install.log" 2>&1 ||
		{ tail -5 "$out/install.log"; fail "meson install --destdir"; }
	IMAGE=localhost/xskf-test:ct$$
	at_exit 'podman rmi -f "$IMAGE" >/dev/null 2>&1'
	# --network none: nothing in the prebuilt target reaches a mirror or a registry
	"${PODMAN[@]}" build "${LIMITS[@]}" --pull=never --network none --layers=false \
		--target prebuilt --build-arg BASE="$BASE" -t "$IMAGE" -f "$S/Containerfile" "$ctx" \
		>"$out/build.log" 2>&1 || { tail -15 "$out/build.log"; fail "podman build"; }
	rm -rf "$ctx"
	ok "image $IMAGE built from the Containerfile (target prebuilt, --network none)"
fi
# the base stays as it is (the lock) until the image is made from it
exec 9>&-

no_pins() { [ ! -e "$PINS" ]; }

# the privileged side, on the host: queue 0 and the program, queue 1 served
mounts=()
if [ "$case_name" = pinned ]; then
	serve_start a pinned '' --pin-group nogroup
	mounts=(-v "$PINS:/run/xskf-pins:ro")
	from=(--xsk-map /run/xskf-pins/xsks_map)
elif [ "$case_name" = uds ]; then
	udir=$(mktemp -d)
	chmod 0711 "$udir"
	at_exit 'rm -rf "$udir"'
	serve_start a uds "$udir/afxdp.sock" --pin-group nogroup
	mounts=(-v "$udir:/run/xskf-dp")
	from=(--xsk-map-uds /run/xskf-dp/afxdp.sock)
else
	fail "unknown case $case_name"
fi
a=$PID

# the app's control folder: pinned, one on the host, bind-mounted, so that the host's xskfctl
# reads its counters; uds, the image's own (XSKF_CTL_DIR=/tmp/xskf), read by the image's
# xskfctl through podman exec
ctl=()
if [ "$case_name" = pinned ]; then
	UCTL=$(mktemp -d)
	chown 65534:65534 "$UCTL"
	at_exit_last 'rm -rf "$UCTL"'
	ctl=(-v "$UCTL:/run/xskf-ctl" -e XSKF_CTL_DIR=/run/xskf-ctl)
fi
"$S/deploy/seccomp-allow-bpf.py" "$PROFILE" "$out/seccomp.json" || fail "seccomp profile"
CT=xskf-test-ct$$
at_exit 'podman rm -f "$CT" "$CT-default" >/dev/null 2>&1'
# podman's own profile refuses bpf() without CAP_SYS_ADMIN: the run stops in one line
# the image runs as nobody by itself (the Containerfile's USER): no --user given below
[ "$(podman image inspect --format '{{.Config.User}}' "$IMAGE")" = 65534:65534 ] ||
	fail "the image's user is '$(podman image inspect --format '{{.Config.User}}' "$IMAGE")', not 65534:65534"
"${PODMAN[@]}" run "${LIMITS[@]}" --rm --name "$CT-default" --network "ns:/run/netns/$TB_NS_DUT" \
	--cap-drop all --cap-add NET_RAW "${mounts[@]}" \
	"${ctl[@]}" "$IMAGE" \
	xsk-rxdrop -i "$TB_IF_DUT" -q 1 "${from[@]}" -c --frames 2048 --cpus 0 \
	>/dev/null 2>"$out/d.err" && fail "the served run started under podman's default seccomp profile"
if [ "$case_name" = pinned ]; then
	refused="--xsk-map /run/xskf-pins/xsks_map: cannot open the pinned map: Operation not permitted"
else
	refused="$TB_IF_DUT: cannot read what the map of /run/xskf-dp/afxdp.sock is: Operation not permitted"
fi
grep -qF -e "$refused (bpf() is refused by this process's seccomp filter: a container runtime's default profile allows it only with CAP_SYS_ADMIN; run with a profile that allows bpf(), deploy/seccomp-allow-bpf.py makes one)" \
	"$out/d.err" || { cat "$out/d.err"; fail "the refusal under the default seccomp profile"; }
ok "podman's default seccomp profile: refused in one line ($refused (bpf() is refused by ...))"
# nobody, with CAP_NET_RAW and nothing else (podman gives an added capability to a non-root
# user as an ambient one), no new privileges, the veth's namespace, 8 MiB of locked memory
# (the default limit here): a 4 MiB UMEM in copy mode, as test_serve.sh's unprivileged runs
"${PODMAN[@]}" run "${LIMITS[@]}" --rm --name "$CT" --network "ns:/run/netns/$TB_NS_DUT" \
	--cap-drop all --cap-add NET_RAW --security-opt no-new-privileges \
	--security-opt seccomp="$out/seccomp.json" "${mounts[@]}" \
	"${ctl[@]}" "$IMAGE" \
	xsk-rxdrop -i "$TB_IF_DUT" -q 1 "${from[@]}" -c --frames 2048 --cpus 0 --json \
	>"$out/u.json" 2>"$out/u.err" &
u=$!
wait_line "$out/u.err" "served: the XSKMAP (id [0-9]*) of ${from[1]}; this run attaches no XDP program"

# u_stats: the container's run's live JSON, from its control socket (whose name holds the
# container's pid for it: the one socket there)
u_stats() {
	local s
	if [ "$case_name" = pinned ]; then
		for s in "$UCTL"/*.sock; do
			[ -S "$s" ] || return 1
			setpriv --reuid=65534 --regid=65534 --clear-groups "$B/apps/xskfctl" -s "$s" stats
		done
	else
		podman exec "$CT" sh -c 'for s in /tmp/xskf/*.sock; do xskfctl -s "$s" stats; done'
	fi
}
u_rx() {
	u_stats 2>/dev/null |
		$PY -c "import json,sys; j=json.load(sys.stdin); print(sum(q['rx_packets'] for q in j['queues']))"
}
wait_for "the container's control socket" ge u_rx 0
# what the kernel sees of the container's process: nobody, bounding set CAP_NET_RAW (bit 13)
# alone, none effective once set up (privs.c drops it), no new privileges, seccomp filtering
hpid=$(podman inspect -f '{{.State.Pid}}' "$CT") || fail "podman inspect"
st() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$hpid/status"; }
[ "$(st CapBnd)" = 0000000000002000 ] && [ "$(st CapEff)" = 0000000000000000 ] &&
	[ "$(awk '/^Uid:/ {print $3}' "/proc/$hpid/status")" = 65534 ] &&
	[ "$(st NoNewPrivs)" = 1 ] && [ "$(st Seccomp)" = 2 ] ||
	fail "the container's process: $(grep -E '^(Uid|Cap|NoNewPrivs|Seccomp)' "/proc/$hpid/status" | tr '\n' ' ')"
ok "in the container: uid 65534, CapBnd 0x2000 (NET_RAW), CapEff 0, no_new_privs, seccomp filter"

send_q0 "$a" 3000 # queue 0: the host's run
send_q1 2000 u_rx # queue 1: the rule sends them to the container's socket
send 500 5001 1   # queue 1, no rule: the stack, not the container
[ "$(u_rx)" = 2000 ] || fail "the container's run received $(u_rx), not 2000"
[ "$(app_rx "$a")" = 3000 ] || fail "the host's run received $(app_rx "$a"), not 3000"
[ "$(app_live "$a" "[r['hits'] for r in j['steering'][0]['rules'] if r['id']]")" = "[5000]" ] ||
	fail "rule hits: $(app_live "$a" "j['steering'][0]['rules']")"
ok "the container's xsk-rxdrop (${from[0]}) received exactly 2000 on queue 1, the host's 3000 on queue 0; rule hits 5000"

podman kill -s INT "$CT" >/dev/null || fail "podman kill"
wait $u
rc=$?
[ $rc = 0 ] || { tail -5 "$out/u.err"; fail "the container's run exited $rc"; }
[ "$(json_get "$out/u.json" "d['queues'][0]['rx_packets']")" = 2000 ] || fail "its final count"
[ "$(json_get "$out/u.json" "d['ports'][0]['attach_mode']")" = served ] || fail "attach_mode"
podman container exists "$CT" && fail "container $CT left after its run (--rm)"
stop_run "$a" || { cat "$out/a.err"; fail "the host's run exited $?"; }
assert_no_xdp "at the end"
no_pins || fail "pins left"
[ "$case_name" != uds ] || [ ! -e "$udir/afxdp.sock" ] || fail "socket file left"
ok "$(grep -o 'served: the XSKMAP.*' "$out/u.err" | head -1)"
