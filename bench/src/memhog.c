// SPDX-License-Identifier: GPL-2.0
/*
 * The memory hog of the zonelist cache's 2006 benchmark (seed 001): N
 * threads, each maps and touches 1/N of MB MiB, one store every 4096
 * bytes, in a single pass. Prints "real=S user=S sys=S" in seconds.
 *
 *   memhog MB THREADS
 */
#include <pthread.h>
#include "args.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

static size_t share;

static void *touch(void *unused)
{
	size_t off;
	char *p;

	(void)unused;
	p = mmap(NULL, share, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("memhog: mmap");
		exit(1);
	}
	for (off = 0; off < share; off += 4096)
		p[off] = 1;
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	pthread_t *th;
	long mb, n, i;

	if (argc != 3) {
		fprintf(stderr, "usage: memhog MB THREADS\n");
		return 2;
	}
	mb = arg_long("memhog", argv[1], "MB", 1, 1 << 24);
	n = arg_long("memhog", argv[2], "THREADS", 1, 1024);
	share = ((size_t)mb << 20) / n;
	th = calloc(n, sizeof(*th));
	if (!th)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, touch, NULL)) {
			fprintf(stderr, "memhog: cannot start thread %ld\n", i);
			return 1;
		}
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_SELF, &ru);
	printf("real=%.3f user=%.3f sys=%.3f\n",
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	return 0;
}
