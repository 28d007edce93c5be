// SPDX-License-Identifier: GPL-2.0
/*
 * The memory hog of the zonelist cache's 2006 benchmark: N
 * threads, each maps and touches 1/N of MB MiB, one store every 4096
 * bytes, in a single pass. Prints "real=S user=S sys=S" in seconds.
 * With "lat" it also times each 2 MiB chunk (512 faults) and prints, in
 * microseconds per chunk, the median over all chunks and over the last
 * quarter of each thread's chunks (when the most memory is in use), the
 * 99th percentile and the maximum: "chunk_p50_us=A last_p50_us=B
 * chunk_p99_us=C chunk_max_us=D".
 *
 *   memhog MB THREADS [lat]
 */
#include <pthread.h>
#include "args.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

#define CHUNK (2UL << 20)

static size_t share;
static int timed;

struct hog {
	pthread_t th;
	double *lat;	/* microseconds per chunk, with "lat" */
	size_t chunks;
};

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void *touch(void *arg)
{
	struct hog *h = arg;
	size_t off;
	double t = 0;
	char *p;

	p = mmap(NULL, share, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("memhog: mmap");
		exit(1);
	}
	if (timed)
		t = now_us();
	for (off = 0; off < share; off += 4096) {
		p[off] = 1;
		if (timed && (off + 4096) % CHUNK == 0) {
			double t1 = now_us();

			h->lat[h->chunks++] = t1 - t;
			t = t1;
		}
	}
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-th percentile of v[0..n-1], sorted in place */
static double pct(double *v, size_t n, int q)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[(n - 1) * q / 100];
}

/* "chunk_p50_us=... last_p50_us=... chunk_p99_us=... chunk_max_us=..." */
static void print_lat(struct hog *hogs, long n)
{
	size_t all = 0, last = 0, i, k;
	double *v, *w, p50, p99, last_p50;
	long t;

	for (t = 0; t < n; t++)
		all += hogs[t].chunks;
	v = calloc(all + 1, sizeof(*v));
	w = calloc(all + 1, sizeof(*w));
	if (!v || !w) {
		perror("memhog: calloc");
		exit(1);
	}
	for (t = 0, k = 0; t < n; t++)
		for (i = 0; i < hogs[t].chunks; i++) {
			v[k++] = hogs[t].lat[i];
			if (i >= hogs[t].chunks - hogs[t].chunks / 4)
				w[last++] = hogs[t].lat[i];
		}
	/* one at a time: pct() sorts, and the maximum is read after it */
	p50 = pct(v, all, 50);
	p99 = pct(v, all, 99);
	last_p50 = last ? pct(w, last, 50) : p50;
	printf(" chunk_p50_us=%.0f last_p50_us=%.0f chunk_p99_us=%.0f chunk_max_us=%.0f",
	       p50, last_p50, p99, v[all - 1]);
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	struct hog *hogs;
	long mb, n, i;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: memhog MB THREADS [lat]\n");
		return 2;
	}
	if (argc == 4) {
		if (strcmp(argv[3], "lat")) {
			fprintf(stderr, "memhog: the third argument is lat, got '%s'\n", argv[3]);
			return 2;
		}
		timed = 1;
	}
	mb = arg_long("memhog", argv[1], "MB", 1, 1 << 24);
	n = arg_long("memhog", argv[2], "THREADS", 1, 1024);
	share = ((size_t)mb << 20) / n;
	if (timed && share < CHUNK) {
		fprintf(stderr, "memhog: with lat, MB / THREADS must be 2 MiB at least\n");
		return 2;
	}
	hogs = calloc(n, sizeof(*hogs));
	if (!hogs)
		return 1;
	for (i = 0; timed && i < n; i++) {
		hogs[i].lat = calloc(share / CHUNK + 1, sizeof(double));
		if (!hogs[i].lat)
			return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++)
		if (pthread_create(&hogs[i].th, NULL, touch, &hogs[i])) {
			fprintf(stderr, "memhog: cannot start thread %ld\n", i);
			return 1;
		}
	for (i = 0; i < n; i++)
		pthread_join(hogs[i].th, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_SELF, &ru);
	printf("real=%.3f user=%.3f sys=%.3f",
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	if (timed)
		print_lat(hogs, n);
	printf("\n");
	return 0;
}
