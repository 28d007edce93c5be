/* SPDX-License-Identifier: GPL-2.0 */
/* Argument parsing shared by the benchmark's user-space loads */
#ifndef BENCH_ARGS_H
#define BENCH_ARGS_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* An integer from min to max, or exit 2 with a one-line reason */
static inline long arg_long(const char *prog, const char *s, const char *what,
			    long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max) {
		fprintf(stderr, "%s: %s must be an integer from %ld to %ld, got '%s'\n",
			prog, what, min, max, s);
		exit(2);
	}
	return v;
}

#endif
