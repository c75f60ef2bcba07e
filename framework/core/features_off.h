/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * XSKF_FEATURES_OFF=name[,name...] (or "all"): kernel features forced off, so that each
 * fallback runs on every kernel (the test suite does). The XDP backend's probes read it
 * (backend/xdp/prog/features.c, its table of names); the memory backend reads the same switch for
 * the fallbacks it plays (adjust_meta: descriptors that start at the meta), so it lives in
 * the core, which every backend may include.
 */
#ifndef XSKF_CORE_FEATURES_OFF_H
#define XSKF_CORE_FEATURES_OFF_H

#include <stdbool.h>

/*
 * xskf_features__forced_off() - does XSKF_FEATURES_OFF name @name (or "all")? For the
 * fallbacks a probe does not decide (the memory backend's, xskf-trafficgen's live frames).
 * Thread: any.
 */
bool xskf_features__forced_off(const char *name);

#endif /* XSKF_CORE_FEATURES_OFF_H */
