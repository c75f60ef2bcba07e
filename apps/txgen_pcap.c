// SPDX-License-Identifier: BSD-2-Clause
/*
 * The frames of a capture file, for xsk-txgen --pcap (txgen_pcap.h). A read error in the
 * middle of the file (a record cut short) ends the file: the frames before it are kept.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "txgen_pcap.h"

void txgen_frames__free(struct txgen_frames *fr)
{
	uint32_t i;

	for (i = 0; i < fr->nr; i++)
		free(fr->data[i]);
	free(fr->data);
	free(fr->len);
	fr->data = NULL;
	fr->len = NULL;
	fr->nr = 0;
}

/* Append a copy of the @len bytes at @d. Returns 0 or -ENOMEM (@fr unchanged). */
static int add_frame(struct txgen_frames *fr, uint32_t *cap, const uint8_t *d, uint32_t len)
{
	uint8_t *copy;

	if (fr->nr == *cap) {
		uint32_t n = *cap ? 2 * *cap : 256;
		uint8_t **nd = realloc(fr->data, n * sizeof(*fr->data));
		uint32_t *nl;

		if (!nd)
			return -ENOMEM;
		fr->data = nd;
		nl = realloc(fr->len, n * sizeof(*fr->len));
		if (!nl)
			return -ENOMEM;
		fr->len = nl;
		*cap = n;
	}
	copy = malloc(len);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, d, len);
	fr->data[fr->nr] = copy;
	fr->len[fr->nr++] = len;
	return 0;
}

static int read_frames(pcap_t *pc, const char *name, uint32_t room, struct txgen_frames *fr,
		       char *err, size_t errlen)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	uint32_t cap = 0;
	int rc, ret = 0;

	if (pcap_datalink(pc) != DLT_EN10MB) {
		snprintf(err, errlen, "%s is not an Ethernet capture", name);
		ret = -EINVAL;
		goto out;
	}
	while ((rc = pcap_next_ex(pc, &h, &data)) == 1) {
		if (h->caplen != h->len || h->len < 14 || h->len > room) {
			fr->skipped++;
			continue;
		}
		ret = add_frame(fr, &cap, data, h->len);
		if (ret) {
			snprintf(err, errlen, "%s: out of memory", name);
			goto out;
		}
	}
	if (!fr->nr) {
		snprintf(err, errlen, "%s has no frame to send", name);
		ret = -EINVAL;
	}
out:
	pcap_close(pc);
	if (ret)
		txgen_frames__free(fr);
	return ret;
}

int txgen_pcap__load(const char *path, uint32_t room, struct txgen_frames *fr, char *err,
		     size_t errlen)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *pc;

	pc = pcap_open_offline(path, errbuf);
	if (!pc) {
		snprintf(err, errlen, "cannot open %s: %s", path, errbuf);
		return -ENOENT;
	}
	return read_frames(pc, path, room, fr, err, errlen);
}

int txgen_pcap__read(FILE *f, const char *name, uint32_t room, struct txgen_frames *fr, char *err,
		     size_t errlen)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *pc;

	pc = pcap_fopen_offline(f, errbuf);
	if (!pc) {
		fclose(f);
		snprintf(err, errlen, "cannot open %s: %s", name, errbuf);
		return -ENOENT;
	}
	return read_frames(pc, name, room, fr, err, errlen);
}
