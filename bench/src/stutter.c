// SPDX-License-Identifier: GPL-2.0
/*
 * The user-space side of the "stutter" load the 2015 reserve rework was
 * measured under (mmtests): an anonymous hog and an mmap latency probe.
 *
 *   stutter hog MB SECONDS
 *	fault MB MiB of anonymous memory, print "faulted", then keep writing
 *	one word per page of it until SECONDS have passed
 *   stutter probe PAGES INTERVAL_MS SECONDS
 *	every INTERVAL_MS, map PAGES anonymous pages, write one word per
 *	page, unmap them; print each round's time in microseconds, one per
 *	line, and how far the round overran the interval
 *
 * Exits 2 with a one-line reason on bad arguments.
 */
#include "args.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int hog(long mb, long secs)
{
	size_t len = (size_t)mb << 20, off;
	long page = sysconf(_SC_PAGESIZE);
	double end = now() + secs;
	char *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("stutter: hog: mmap");
		return 1;
	}
	for (off = 0; off < len; off += page)
		p[off] = 1;
	printf("faulted\n");
	fflush(stdout);
	while (now() < end)
		for (off = 0; off < len; off += page)
			p[off]++;
	return 0;
}

static int probe(long pages, long interval_ms, long secs)
{
	long page = sysconf(_SC_PAGESIZE), i;
	double end = now() + secs, interval = interval_ms / 1e3;

	while (now() < end) {
		double t0 = now(), dt;
		char *p;

		p = mmap(NULL, pages * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			perror("stutter: probe: mmap");
			return 1;
		}
		for (i = 0; i < pages; i++)
			p[i * page] = 1;
		munmap(p, pages * page);
		dt = now() - t0;
		printf("%.0f\n", dt * 1e6);
		fflush(stdout);
		if (dt < interval)
			usleep((interval - dt) * 1e6);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "hog"))
		return hog(arg_long("stutter", argv[2], "MB", 1, 1 << 20),
			   arg_long("stutter", argv[3], "SECONDS", 1, 86400));
	if (argc == 5 && !strcmp(argv[1], "probe"))
		return probe(arg_long("stutter", argv[2], "PAGES", 1, 1 << 24),
			     arg_long("stutter", argv[3], "INTERVAL_MS", 1, 60000),
			     arg_long("stutter", argv[4], "SECONDS", 1, 86400));
	fprintf(stderr, "usage: stutter hog MB SECONDS | stutter probe PAGES INTERVAL_MS SECONDS\n");
	return 2;
}
