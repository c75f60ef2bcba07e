/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Every private header of the core, for tests that look at all of it. A module of libxskf
 * includes the headers of what it uses instead (docs/architecture.md):
 *
 *   core/compiler.h   branch hints, the cache line, xskf_opts_valid()
 *   core/log.h        messages through the print callback
 *   core/clock.h      xskf_now_ns()
 *   core/hugepages.h  page sizes, pools per node, hugetlbfs mounts
 *   core/umem.h       UMEM memory and the frame cache
 *   core/sock.h       one socket: rings, TX shadow, counters
 *   core/pkt_priv.h   struct xskf_pkt's private bytes, by name
 *   core/port.h       one port (its backend state: be_priv)
 *   core/worker.h     a worker and the poll loop
 *   core/engine.h     the engine, its start and stop
 *   core/cpus.h       CPU lists
 *   core/proc.h       other processes (owners)
 *   core/csum.h       unfinished TCP/UDP checksums
 */
#ifndef XSKF_INTERNAL_H
#define XSKF_INTERNAL_H

#include "core/clock.h"
#include "core/compiler.h"
#include "core/cpus.h"
#include "core/csum.h"
#include "core/engine.h"
#include "core/hugepages.h"
#include "core/log.h"
#include "core/pkt_priv.h"
#include "core/port.h"
#include "core/proc.h"
#include "core/sock.h"
#include "core/umem.h"
#include "core/worker.h"

#endif /* XSKF_INTERNAL_H */
