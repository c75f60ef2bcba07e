// SPDX-License-Identifier: BSD-2-Clause
/*
 * What `xskf doctor` asks the driver through the ethtool ioctl (channels, the RSS indirection
 * table, ntuple rules, rx-flow-hash) and what it reads of the interface's interrupts. Only
 * reads: doctor changes nothing. Each answer goes to a judge (doctor_judge.c, doctor_steer.c).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <sys/socket.h>

#include "backend/xdp/doctor/doctor_read.h"
#include "backend/xdp/watch/ethtool.h"
#include "backend/xdp/doctor/doctor.h"
#include "backend/xdp/doctor/doctor_judge.h"

int xskf_dr__open_ethtool(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	return fd < 0 ? -errno : fd;
}

int xskf_dr__channels(int fd, const char *ifn, unsigned int *rx, unsigned int *max_rx)
{
	struct ethtool_channels ch = {.cmd = ETHTOOL_GCHANNELS};
	int err = xskf_ethtool(fd, ifn, &ch);

	if (err)
		return err;
	/* RX queues are the combined channels and the RX-only ones */
	*rx = ch.combined_count + ch.rx_count;
	*max_rx = ch.max_combined + ch.max_rx;
	return 0;
}

int xskf_dr__indir(int fd, const char *ifn, uint32_t **indir, unsigned int *n)
{
	struct ethtool_rxfh_indir head = {.cmd = ETHTOOL_GRXFHINDIR}, *t;
	int err;

	*indir = NULL;
	*n = 0;
	/* size 0 first: the driver says how many entries its table has */
	err = xskf_ethtool(fd, ifn, &head);
	if (err || !head.size)
		return err;
	t = calloc(1, sizeof(*t) + head.size * sizeof(t->ring_index[0]));
	if (!t)
		return -ENOMEM;
	t->cmd = ETHTOOL_GRXFHINDIR;
	t->size = head.size;
	err = xskf_ethtool(fd, ifn, t);
	if (!err) {
		*indir = malloc(t->size * sizeof(uint32_t));
		if (*indir) {
			memcpy(*indir, t->ring_index, t->size * sizeof(uint32_t));
			*n = t->size;
		} else {
			err = -ENOMEM;
		}
	}
	free(t);
	return err;
}

int xskf_dr__rules(int fd, const char *ifn, struct ethtool_rx_flow_spec **rules, unsigned int *n)
{
	struct ethtool_rxnfc cnt = {.cmd = ETHTOOL_GRXCLSRLCNT}, *all;
	unsigned int i, got = 0;
	int err;

	*rules = NULL;
	*n = 0;
	err = xskf_ethtool(fd, ifn, &cnt);
	if (err || !cnt.rule_cnt)
		return err;
	all = calloc(1, sizeof(*all) + cnt.rule_cnt * sizeof(all->rule_locs[0]));
	*rules = calloc(cnt.rule_cnt, sizeof(**rules));
	if (!all || !*rules) {
		err = -ENOMEM;
		goto out;
	}
	all->cmd = ETHTOOL_GRXCLSRLALL;
	all->rule_cnt = cnt.rule_cnt;
	err = xskf_ethtool(fd, ifn, all);
	for (i = 0; !err && i < all->rule_cnt && i < cnt.rule_cnt; i++) {
		struct ethtool_rxnfc one = {.cmd = ETHTOOL_GRXCLSRULE};

		one.fs.location = all->rule_locs[i];
		/* a rule deleted between the two calls is no rule */
		if (!xskf_ethtool(fd, ifn, &one))
			(*rules)[got++] = one.fs;
	}
	*n = got;
out:
	free(all);
	if (err) {
		free(*rules);
		*rules = NULL;
	}
	return err;
}

int xskf_dr__rxfh(int fd, const char *ifn, uint32_t flow, uint64_t *fields)
{
	struct ethtool_rxnfc nfc = {.cmd = ETHTOOL_GRXFH, .flow_type = flow};
	int err = xskf_ethtool(fd, ifn, &nfc);

	*fields = err ? 0 : nfc.data;
	return err;
}

/* Is @irq one of @ifn's device's MSI/MSI-X vectors (its device, or virtio's PCI parent)? */
static bool own_irq(const char *ifn, unsigned int irq)
{
	char path[160];

	snprintf(path, sizeof(path), "/sys/class/net/%s/device/msi_irqs/%u", ifn, irq);
	if (!access(path, F_OK))
		return true;
	snprintf(path, sizeof(path), "/sys/class/net/%s/device/../msi_irqs/%u", ifn, irq);
	return !access(path, F_OK);
}

/* The CPUs IRQ @irq runs on: the effective affinity, else the allowed one ("" unknown). */
static void irq_affinity(unsigned int irq, char *buf, size_t len)
{
	static const char *const files[] = {"effective_affinity_list", "smp_affinity_list"};
	unsigned int i;

	buf[0] = 0;
	for (i = 0; i < 2 && !buf[0]; i++) {
		char path[96];
		FILE *f;

		snprintf(path, sizeof(path), "/proc/irq/%u/%s", irq, files[i]);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (!fgets(buf, (int)len, f))
			buf[0] = 0;
		buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
}

int xskf_dr__irqs(const char *ifn, struct xskf_dr_irq *out, unsigned int max)
{
	char line[4096], name[128];
	unsigned int n = 0, irq;
	FILE *f = fopen("/proc/interrupts", "re");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && n < max) {
		int q;

		if (xskf_dr__irq_line(line, &irq, name, sizeof(name)) || !own_irq(ifn, irq))
			continue;
		q = xskf_dr__irq_queue(name);
		if (q < 0)
			continue;
		out[n].irq = irq;
		out[n].queue = (uint32_t)q;
		snprintf(out[n].name, sizeof(out[n].name), "%.*s", (int)sizeof(out[n].name) - 1,
			 name);
		irq_affinity(irq, out[n].affinity, sizeof(out[n].affinity));
		n++;
	}
	fclose(f);
	return (int)n;
}
