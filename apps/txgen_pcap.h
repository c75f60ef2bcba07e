/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xsk-txgen's pcap reader: the Ethernet frames of a capture file (pcap or pcapng, through
 * libpcap), each copied into a buffer of its own, in file order. Frames that cannot be sent as
 * they are — truncated (caplen < len), shorter than an Ethernet header, or larger than a UMEM
 * frame's room — are skipped and counted. Used by the plugin (xsk-txgen.c) and the fuzz target
 * (tests/fuzz/fuzz_pcap.c).
 */
#ifndef TXGEN_PCAP_H
#define TXGEN_PCAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct txgen_frames {
	uint8_t **data; /* nr frames, each of len[i] bytes */
	uint32_t *len;
	uint32_t nr;
	uint32_t skipped; /* records not kept: truncated, runt or larger than the room */
};

/*
 * txgen_pcap__load() - read the capture file @path into @fr (zeroed by the caller), keeping
 * the frames of 14 to @room bytes.
 * Returns 0 with at least one frame in @fr, or -ENOENT (cannot open), -EINVAL (not an Ethernet
 * capture, or no frame to send), -ENOMEM, with the reason in @err and nothing left in @fr but
 * the skipped count. Thread: control thread.
 */
int txgen_pcap__load(const char *path, uint32_t room, struct txgen_frames *fr, char *err,
		     size_t errlen);

/*
 * txgen_pcap__read() - the same from the open stream @f, which is closed in all cases; @name
 * stands for the file in messages.
 */
int txgen_pcap__read(FILE *f, const char *name, uint32_t room, struct txgen_frames *fr, char *err,
		     size_t errlen);

/* Free the frames of @fr and zero it. */
void txgen_frames__free(struct txgen_frames *fr);

#endif /* TXGEN_PCAP_H */
