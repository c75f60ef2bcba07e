/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ways into xskf doctor: the command (doctor_cmd.c), the warnings at start-up
 * (doctor_start.c) and the backend's part of the control socket's "doctor" answer
 * (doctor_live.c).
 */
#ifndef XSKF_DOCTOR_CMD_H
#define XSKF_DOCTOR_CMD_H

#include <stdio.h>

/* ---- at start-up (doctor_start.c): the cheap and certain checks, a warning line each ---- */
struct xskf_engine;
void xskf_dr__startup(const struct xskf_engine *eng);

/* ---- the commands ---- */
int xskf_doctor__cmd(int argc, char **argv);
/* The backend's part of the control socket's "doctor" answer (doctor_live.c). */
void xskf_xdp__doctor(struct xskf_engine *eng, FILE *f);

#endif /* XSKF_DOCTOR_CMD_H */
