/* SPDX-License-Identifier: MIT */
/*
 * compat.h - whether two traces measure the same thing and may be merged
 * into one fleet: the same kind (run or duet), harness command, boundaries
 * and probes, stoppage configuration and duet design. Machines differ
 * (that is the point); shards of one suite (CONTEXT "shard", the `--shard
 * I/N` option) differ in the benchmarks they select and are accepted.
 */
#ifndef BENCHSCOPE_FLEET_COMPAT_H
#define BENCHSCOPE_FLEET_COMPAT_H

#include <stddef.h>

#include <json-c/json.h>

/**
 * bs_fleet_compat - compare the CONTEXT @b of a candidate member with the
 * CONTEXT @a of the fleet's first member. Returns 0 when they may be
 * merged; 1 when not, with the first difference in @why as
 * "command differs: './bench --a' vs './bench --b'".
 *
 * Compared: kind ("mode": duet, else run); command (argv; duets: the
 * commands of A and B) - for two shards (both CONTEXTs have "shard" with
 * the same "count"), benchmark-selection words (--benchmark_filter=...,
 * -test.bench=..., a criterion filter "^(...)$") are left out; the shard
 * count; boundaries (kind, begin, end, probes); the "stop" configuration;
 * duet: benchmark label, methods, A/A mode.
 */
int bs_fleet_compat(json_object *a, json_object *b, char *why, size_t len);

#endif
