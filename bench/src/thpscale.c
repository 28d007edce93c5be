// SPDX-License-Identifier: GPL-2.0
/*
 * A THP load after mmtests' thpscale: THREADS threads fault a
 * MADV_HUGEPAGE region of MB MiB, then half of every 2 MiB range is
 * punched out (splitting what was huge), and a second MADV_HUGEPAGE
 * region of MB/2 MiB is faulted in the holes' memory; both are unmapped
 * and the cycle repeats until SECONDS have passed (SECONDS 0: exactly one
 * cycle, so that every run asks for the same memory). Whether faults got
 * huge pages is read from /proc/vmstat by the caller; this prints
 * "cycles=C fault_ms=M" (M: mean time to fault one cycle's memory).
 *
 *   thpscale MB THREADS SECONDS [madvise|plain [WINDOW_MB]]
 *
 * plain: the regions are not madvised (THP by the "always" policy alone).
 * WINDOW_MB: the faults go in windows of that many MiB (each region's last
 * window may be smaller); before each window thpscale prints "window I"
 * on standard output and waits for a line on standard input, so that the
 * caller can record the state the window's faults start from.
 */
#include <pthread.h>
#include <stdint.h>
#include "args.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define HPAGE (2UL << 20)

static int advise = 1;
static size_t window;
static long windows;

struct part {
	char *p;
	size_t len;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A 2 MiB aligned region of len bytes, MADV_HUGEPAGE unless "plain"; *base is for munmap */
static char *map_huge(size_t len, char **base)
{
	char *p = mmap(NULL, len + HPAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("thpscale: mmap");
		exit(1);
	}
	*base = p;
	p = (char *)(((uintptr_t)p + HPAGE - 1) & ~(HPAGE - 1));
	if (advise && madvise(p, len, MADV_HUGEPAGE)) {
		perror("thpscale: madvise(MADV_HUGEPAGE)");
		exit(1);
	}
	return p;
}

static void *touch(void *arg)
{
	struct part *pt = arg;
	size_t off;

	for (off = 0; off < pt->len; off += 4096)
		pt->p[off] = 1;
	return NULL;
}

static void fault_all(char *p, size_t len, long threads)
{
	struct part parts[64];
	pthread_t th[64];
	size_t share = len / threads / HPAGE * HPAGE;
	long i;

	for (i = 0; i < threads; i++) {
		parts[i].p = p + i * share;
		parts[i].len = i == threads - 1 ? len - i * share : share;
		if (pthread_create(&th[i], NULL, touch, &parts[i])) {
			fprintf(stderr, "thpscale: cannot start thread %ld\n", i);
			exit(1);
		}
	}
	for (i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
}

/* Wait for the caller's line before each window (no window: at once) */
static void fault(char *p, size_t len, long threads)
{
	char line[64];
	size_t off, n;

	if (!window) {
		fault_all(p, len, threads);
		return;
	}
	for (off = 0; off < len; off += n) {
		n = len - off < window ? len - off : window;
		printf("window %ld\n", ++windows);
		fflush(stdout);
		if (!fgets(line, sizeof(line), stdin)) {
			fprintf(stderr, "thpscale: standard input closed before window %ld\n",
				windows);
			exit(1);
		}
		fault_all(p + off, n, threads);
	}
}

int main(int argc, char **argv)
{
	long mb, threads, secs, cycles = 0;
	double end, fault_time = 0;
	size_t len, off;

	if (argc < 4 || argc > 6) {
		fprintf(stderr, "usage: thpscale MB THREADS SECONDS [madvise|plain [WINDOW_MB]]\n");
		return 2;
	}
	if (argc >= 5) {
		if (!strcmp(argv[4], "plain")) {
			advise = 0;
		} else if (strcmp(argv[4], "madvise")) {
			fprintf(stderr, "thpscale: the fourth argument is madvise or plain, got '%s'\n",
				argv[4]);
			return 2;
		}
	}
	mb = arg_long("thpscale", argv[1], "MB", 1, 1 << 24);
	threads = arg_long("thpscale", argv[2], "THREADS", 1, 64);
	secs = arg_long("thpscale", argv[3], "SECONDS", 0, 86400);
	if (argc == 6)
		window = ((size_t)arg_long("thpscale", argv[5], "WINDOW_MB", 2, 1 << 24) << 20) /
			 HPAGE * HPAGE;
	len = ((size_t)mb << 20) / HPAGE * HPAGE;
	if (len < 2 * HPAGE) {
		fprintf(stderr, "thpscale: MB must be at least 4\n");
		return 2;
	}
	end = now() + secs;
	do {
		char *base_a, *base_b, *a, *b;
		double t0 = now();

		a = map_huge(len, &base_a);
		fault(a, len, threads);
		for (off = 0; off < len; off += HPAGE)
			madvise(a + off + HPAGE / 2, HPAGE / 2, MADV_DONTNEED);
		b = map_huge(len / 2, &base_b);
		fault(b, len / 2, threads);
		fault_time += now() - t0;
		munmap(base_b, len / 2 + HPAGE);
		munmap(base_a, len + HPAGE);
		cycles++;
	} while (secs && now() < end);
	printf("cycles=%ld fault_ms=%.1f\n", cycles, fault_time * 1e3 / cycles);
	return 0;
}
