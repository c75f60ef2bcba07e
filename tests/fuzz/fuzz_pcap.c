// SPDX-License-Identifier: BSD-2-Clause
/*
 * Fuzz target: xsk-txgen's pcap reader (apps/txgen_pcap.c, over libpcap's file reader), on the
 * input as a capture file.
 *  - success means at least one frame; each is 14 to ROOM bytes, and its bytes are found in
 *    the file as they are (a copy of a record, not of memory around it); the frames and a
 *    header each fit in the file.
 *  - failure leaves no frame and says why, naming the file.
 *  - the split by flow (apps/txgen_flow.c) over 1 to 4 workers is a partition of the frames:
 *    every frame in exactly one share, the one of its hash, each share in file order.
 * libpcap itself is not instrumented (Debian's build): coverage counts the reader's own edges,
 * while ASan still checks every copy the reader makes out of libpcap's buffers.
 */
#include <errno.h>
#include <string.h> /* memmem: _GNU_SOURCE, as the whole build */

#include "txgen_flow.h"
#include "txgen_pcap.h"

#include "fuzz.h"

#define NAME "fuzz.pcap"
#define ROOM 1760 /* a 2048-byte UMEM frame less the largest headroom, as xsk-txgen */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct txgen_frames fr = {0};
	char err[512] = "";
	unsigned int nw, w;
	uint32_t i;
	size_t total;
	FILE *f;
	int rc;

	f = fmemopen((void *)data, size, "r");
	FUZZ_ASSERT(f, "fmemopen of %zu bytes", size);
	rc = txgen_pcap__read(f, NAME, ROOM, &fr, err, sizeof(err));
	if (rc) {
		FUZZ_ASSERT(rc == -ENOENT || rc == -EINVAL || rc == -ENOMEM, "rc %d", rc);
		FUZZ_ASSERT(!fr.nr && !fr.data && !fr.len, "failure (%d) left %u frames", rc,
			    fr.nr);
		FUZZ_ASSERT(strstr(err, NAME), "error '%s' does not name the file", err);
		return 0;
	}
	FUZZ_ASSERT(fr.nr >= 1 && fr.data && fr.len, "success without a frame");
	for (i = 0, total = 24; i < fr.nr; i++) {
		total += 16 + (size_t)fr.len[i]; /* a record header at least */
		FUZZ_ASSERT(fr.len[i] >= 14 && fr.len[i] <= ROOM, "frame %u of %u bytes", i,
			    fr.len[i]);
		FUZZ_ASSERT(memmem(data, size, fr.data[i], fr.len[i]),
			    "frame %u (%u bytes) is not in the file", i, fr.len[i]);
	}
	FUZZ_ASSERT(total <= size, "%u frames of %zu bytes with their headers from %zu bytes",
		    fr.nr, total, size);
	for (nw = 1; nw <= 4; nw++) {
		struct txgen_share sh[4] = {0};
		uint32_t seen = 0, j;

		if (txgen_frames__split(&fr, nw, sh))
			continue; /* -ENOMEM: nothing to check */
		for (w = 0; w < nw; w++) {
			for (j = 0; j < sh[w].nr; j++) {
				uint32_t k = sh[w].idx[j];

				FUZZ_ASSERT(k < fr.nr, "share %u has frame %u of %u", w, k, fr.nr);
				FUZZ_ASSERT(!j || k > sh[w].idx[j - 1],
					    "share %u out of file order", w);
				FUZZ_ASSERT(txgen_flow__hash(fr.data[k], fr.len[k]) % nw == w,
					    "frame %u in share %u, its hash says %u", k, w,
					    txgen_flow__hash(fr.data[k], fr.len[k]) % nw);
			}
			seen += sh[w].nr;
		}
		FUZZ_ASSERT(seen == fr.nr, "%u workers: %u frames in the shares of %u", nw, seen,
			    fr.nr);
		txgen_shares__free(sh, nw);
	}
	txgen_frames__free(&fr);
	FUZZ_ASSERT(!fr.nr && !fr.data && !fr.len, "free left frames");
	return 0;
}
