/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `xskf doctor` (issue 46): why frames do not reach a socket, before a run. Private to libxskf.
 *
 *   doctor_judge.c  the findings and their lines; judges of what was read (pure: no system
 *                   call, unit-tested with made-up answers in tests/unit/test_doctor.c)
 *   doctor_read.c   what the interface and the kernel say (ethtool, sysfs, procfs, netlink)
 *   doctor_cmd.c    the command: its options, the checks in order, the output
 *   doctor_start.c  the few checks that are cheap and certain, as warnings at start-up
 *   doctor_live.c   the backend's part of a running instance's answer (xskfctl doctor)
 *   doctor_report.c the findings kept, printed and written as JSON
 *
 * This header: a finding, a report, what was asked, and the report's calls. The judges and
 * checks are in doctor_judge.h, the ways in (command, start-up, control socket) in
 * doctor_cmd.h.
 *
 * A finding is one line: what is wrong, the evidence (numbers, the rule), and the fix (the exact
 * command). Checks that found nothing wrong, or that the driver could not answer, are kept too
 * (severity ok, unknown): --json and -v show them, the plain output does not.
 */
#ifndef XSKF_DOCTOR_H
#define XSKF_DOCTOR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum xskf_dr_sev { XSKF_DR_OK, XSKF_DR_UNKNOWN, XSKF_DR_INFO, XSKF_DR_PROBLEM };

struct xskf_dr_finding {
	enum xskf_dr_sev sev;
	char check[24];	    /* its stable name: "rss", "irq-cpu", ... (xskf-doctor(1)) */
	char what[256];	    /* what is wrong (or what was found) */
	char evidence[384]; /* the numbers, the rule */
	char fix[256];	    /* the exact command, or "" */
};

#define XSKF_DR_MAX 64
struct xskf_dr_report {
	struct xskf_dr_finding f[XSKF_DR_MAX];
	unsigned int n, dropped; /* findings beyond XSKF_DR_MAX are counted, not kept */
};

/* The highest queue id doctor keeps track of (an RSS table or a rule naming more: ignored). */
#define XSKF_DR_MAXQ 1024

/* One finding into @r: the three texts printf-style, separated by a '\n' in @fmt. */
__attribute__((format(printf, 4, 5))) void xskf_dr__add(struct xskf_dr_report *r,
							enum xskf_dr_sev sev, const char *check,
							const char *fmt, ...);
unsigned int xskf_dr__count(const struct xskf_dr_report *r, enum xskf_dr_sev sev);
const char *xskf_dr__sev_name(enum xskf_dr_sev sev);
/*
 * The report as lines (problems and information; @verbose: every check) ending in "no problem
 * found" when there is none, or as one JSON document (xskf-doctor(1) documents both).
 */
void xskf_dr__print(FILE *f, const struct xskf_dr_report *r, bool verbose);
void xskf_dr__json(FILE *f, const struct xskf_dr_report *r, const char *ifname,
		   const uint32_t *queues, unsigned int nq);
/* "0-2,5" for the queues set in @set (XSKF_DR_MAXQ entries), into @buf. Returns @buf. */
const char *xskf_dr__ranges(const bool *set, unsigned int n, char *buf, size_t len);

/* The queues asked (-q; none: every queue of the interface), what the run will use. */
struct xskf_dr_ask {
	const char *ifname;
	uint32_t queues[XSKF_DR_MAXQ];
	unsigned int nq;     /* 0: every RX queue */
	int cpus[256];	     /* --cpus, the workers' CPUs */
	unsigned int ncpus;  /* 0: not given (workers not pinned) */
	uint32_t frame_size; /* --frame-size (2048) */
	uint32_t headroom;   /* in front of a frame's data: 256 + the hints (watch.c's room) */
	uint64_t umem_bytes; /* per worker: frames * frame_size */
	bool zero_copy;	     /* -z asked */
	bool busy_poll;	     /* -B asked */
	bool skb;	     /* --skb asked */
	bool mac_known;	     /* --mac given: */
	uint8_t mac[6];	     /* the traffic's destination MAC */
};

#endif /* XSKF_DOCTOR_H */
