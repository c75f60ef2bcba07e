// SPDX-License-Identifier: BSD-2-Clause
/*
 * xskf-deny-test-run ERRNO CMD [ARG...]: run CMD with every bpf(BPF_PROG_TEST_RUN) failing with
 * ERRNO (a number, or EPERM, EINVAL, EOPNOTSUPP), through a seccomp filter. It makes a kernel
 * that refuses test runs, as some 6.18 builds (EPERM) and 5.10 (EINVAL: no live frames) do, so
 * that test_trafficgen.sh can check xskf-trafficgen's probe on any kernel. Other bpf() commands
 * (loading the program) pass.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/audit.h>
#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#error "add this architecture's AUDIT_ARCH"
#endif

static int parse_errno(const char *s)
{
	if (!strcmp(s, "EPERM"))
		return EPERM;
	if (!strcmp(s, "EINVAL"))
		return EINVAL;
	if (!strcmp(s, "EOPNOTSUPP"))
		return EOPNOTSUPP;
	return atoi(s);
}

int main(int argc, char **argv)
{
	int err;

	if (argc < 3 || (err = parse_errno(argv[1])) <= 0 || err > 4095) {
		fprintf(stderr, "usage: %s ERRNO CMD [ARG...]\n", argv[0]);
		return 2;
	}
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_bpf, 0, 3),
		/* the low half of args[0], the command (little endian) */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, BPF_PROG_TEST_RUN, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("seccomp");
		return 1;
	}
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
